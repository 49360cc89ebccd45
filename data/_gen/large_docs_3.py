"""Content of large_acquisition documents 17-25 (IP, people, contracts, audit, closing)."""

from __future__ import annotations

from .large_meta import D
from .pdf import Block, h, p, ul

Body = tuple[list[str], list[Block]]


def doc_17() -> Body:
    """Patent assignment agreements."""
    header = [
        "Inventor, contractor and closing assignments of InnovateTech patents",
        "Compiled February 15, 2025",
    ]
    blocks: list[Block] = [
        h("PURPOSE"),
        p(f"""This compilation summarizes every assignment in the chain of title of the patents
        and application listed in {D["06"]}, and the assignment to be delivered at the Closing
        under Section 3.12 of {D["01"]}."""),
        h("PART 1 - INVENTOR ASSIGNMENTS"),
        p("""US Patent 10,123,456 (Machine Learning System for Predictive Analytics). Assignors:
        Dr. Sarah Chen and Priya Natarajan. Executed April 2, 2019; recorded at the USPTO on
        April 10, 2019 at Reel 048812, Frame 0455."""),
        p("""US Patent 10,234,567 (Distributed Data Processing Architecture). Assignor: David
        Kim, executed July 1, 2020 and recorded at Reel 053120, Frame 0101. Co-inventor Marco
        Bellini worked on the invention as a contractor of Lumen Data Labs; see Part 2."""),
        p("""US Patent 10,345,678 (Real-time Anomaly Detection Method). Assignors: Dr. Sarah
        Chen and Michael Rodriguez. Executed February 1, 2021; recorded at Reel 055230,
        Frame 0877."""),
        p("""US Application 17/456,789 (Automated Workflow Optimization). Assignors: David Kim
        and Priya Natarajan. Executed on filing in 2024; recorded with the application."""),
        h("PART 2 - CONFIRMATORY ASSIGNMENT (LUMEN DATA LABS)"),
        p("""The 2020 consulting agreement with Lumen Data Labs contained only a promise to
        assign future inventions, which left a gap in the chain of title to US Patent
        10,234,567. Marco Bellini and Lumen Data Labs signed a confirmatory nunc pro tunc
        assignment on February 3, 2025, for consideration of $15,000, recorded on February 7,
        2025 at Reel 069001, Frame 0220. Diligence counsel considers the gap cured."""),
        h("PART 3 - RELEASE OF SECURITY INTEREST"),
        p("""Silicon Harbor Bank holds a recorded security interest in all three patents
        (Reel 060455, Frame 0010) securing the term loan. The bank will deliver a release with
        its payoff letter, to be recorded at the USPTO after the Closing."""),
        h("PART 4 - CLOSING IP ASSIGNMENT"),
        p("""At the Closing, InnovateTech assigns the three patents and the pending application
        to GlobalTech IP Holdings LLC, a wholly owned subsidiary of GlobalTech Corporation. The
        assignment is recorded with the USPTO within 10 business days after the Closing."""),
        h("PART 5 - INVENTOR COOPERATION"),
        p("""Each inventor who remains employed agrees to sign declarations and other papers
        needed to prosecute the pending application and to enforce the patents, at
        GlobalTech's expense."""),
        h("PART 6 - FOREIGN COUNTERPARTS"),
        p("""European patent application EP 21 123 456.7, the counterpart of US Patent
        10,345,678, is pending before the European Patent Office and is covered by the same
        inventor assignments."""),
        h("PART 7 - EMPLOYEE INVENTION AGREEMENTS"),
        p("""Since 2015 every employee has signed the Company's proprietary information and
        inventions agreement, which includes the notice required by California Labor Code
        Section 2870."""),
    ]
    return header, blocks


def doc_18() -> Body:
    """Trademark registration schedule."""
    header = [
        "Trademarks of InnovateTech Solutions, Inc. and InnovateTech UK Limited",
        "Status as of February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This schedule expands Part C of {D["06"]} and lists every registered mark and
        pending application with its status and next maintenance deadline."""),
        h("UNITED STATES REGISTRATIONS"),
        p("""INNOVATETECH (word mark). Reg. No. 5,123,456. Registered March 10, 2017 in Class 9
        (downloadable software) and Class 42 (software as a service). Combined Section 8 and 9
        renewal due March 10, 2027."""),
        p("""INNOVATETECH (logo). Reg. No. 5,234,567. Registered July 24, 2017 in Class 42.
        Renewal due July 24, 2027."""),
        p("""DATAFLOW PRO. Reg. No. 5,345,678. Registered November 13, 2017 in Classes 9 and 42
        for data analytics software. Renewal due November 13, 2027."""),
        h("PENDING UNITED STATES APPLICATION"),
        p("""FLOWSENTRY. Serial No. 98123456, filed August 5, 2024 in Class 42 for an anomaly
        alerting service. The examiner issued an office action in January 2025 citing a
        likelihood of confusion with the registered mark FLOWSENTINEL; a response is due in
        July 2025."""),
        h("FOREIGN REGISTRATIONS"),
        p("""European Union trade mark INNOVATETECH, No. 018765432, registered 2019 in Classes 9
        and 42. United Kingdom trade mark DATAFLOW PRO, No. UK00003456789, registered 2020 in
        the name of InnovateTech UK Limited."""),
        h("OWNERSHIP AND MAINTENANCE"),
        p("""All marks are owned by InnovateTech Solutions, Inc., except the UK registration,
        which is owned by its UK subsidiary. Deadlines are docketed by the outside trademark
        counsel Pryor Lund IP, which will transfer the docket to GlobalTech after the
        Closing."""),
        h("ENFORCEMENT"),
        p("""In 2024 the Company sent a cease-and-desist letter to the holder of the domain
        dataflowpro.ai, which transferred the domain to the Company. No opposition or
        cancellation proceedings are pending."""),
        h("DOMAIN NAMES"),
        p("""innovatetech.com (registered 2014), dataflowpro.io (registered 2017) and
        dataflowpro.ai (acquired 2024). All renew automatically through the Company's
        registrar account."""),
        h("LICENSES OF MARKS"),
        p("""Nordlys Analytics AS, a reseller in Norway, holds a non-exclusive license to use
        the DATAFLOW PRO mark in Scandinavia until December 2026. Customers may refer to the
        marks in internal materials."""),
        h("BRAND PLAN AFTER CLOSING"),
        p("""GlobalTech intends to keep the DATAFLOW PRO brand and to phase out the
        INNOVATETECH logo within 18 months after the Closing, while maintaining the
        registrations until their next renewal."""),
    ]
    return header, blocks


def doc_19() -> Body:
    """Key employee retention agreements."""
    header = [
        "Retention agreements between GlobalTech Corporation and five key employees",
        "Signed February 12, 2025; effective at the Closing",
    ]
    blocks: list[Block] = [
        h("OVERVIEW"),
        p(f"""GlobalTech entered into retention agreements with the five key employees named in
        {D["07"]}. The retention program totals $3,500,000 and is funded by GlobalTech in
        addition to the Purchase Price."""),
        h("COMMON TERMS"),
        p("""Each Retention Bonus is paid in two equal installments: 50% on April 1, 2026, the
        first anniversary of the Closing, and 50% on April 1, 2027, the second anniversary,
        provided the employee is still employed on each date."""),
        p("""If GlobalTech terminates the employee without cause, or the employee resigns for
        Good Reason, all unpaid installments are paid within 30 days. Good Reason means a base
        salary reduction of more than 10%, a relocation of more than 50 miles, or a material
        reduction in duties."""),
        p("""Installments paid are subject to clawback if the employee breaches the
        non-competition or confidentiality covenants."""),
        h("INDIVIDUAL TERMS"),
        p("""Dr. Sarah Chen, Chief Technology Officer. New title: Senior Vice President, AI
        Platforms. Base salary $410,000. Retention Bonus: $1,200,000. New-hire grant of 60,000
        GlobalTech restricted stock units vesting over four years."""),
        p("""Michael Rodriguez, VP Engineering. Base salary $330,000. Retention Bonus:
        $800,000. Grant of 30,000 restricted stock units."""),
        p("""Jennifer Walsh, VP Sales. Base salary $290,000 plus commission. Retention Bonus:
        $600,000. Grant of 25,000 restricted stock units."""),
        p("""David Kim, Principal Architect. Base salary $300,000. Retention Bonus: $500,000.
        Grant of 25,000 restricted stock units."""),
        p("""Amanda Foster, VP Customer Success. Base salary $250,000. Retention Bonus:
        $400,000. Grant of 20,000 restricted stock units."""),
        h("FOUNDER"),
        p(f"""Robert Okafor does not receive a retention bonus. His continuing role is governed
        by {D["15"]}."""),
        h("TAX"),
        p("""The bonuses are treated as wages and are not contingent on the change of control,
        so they are not expected to be parachute payments under Section 280G of the Internal
        Revenue Code."""),
        h("ADMINISTRATION"),
        p("""The program is administered by GlobalTech's Vice President of Total Rewards, Naomi
        Castillo. Installments are paid through payroll, less applicable withholding."""),
        h("SUCCESSION"),
        p("""If Dr. Chen leaves before April 1, 2027, Michael Rodriguez will serve as interim
        head of the AI Platforms group while a permanent successor is appointed."""),
        h("RELATIONSHIP TO ASSUMED OPTIONS"),
        p("""Unvested InnovateTech options held by the key employees are assumed by GlobalTech
        and keep their existing double-trigger acceleration, which applies for 12 months after
        the Closing."""),
    ]
    return header, blocks


def doc_20() -> Body:
    """Employee benefit plan schedule."""
    header = [
        "Benefit plans of InnovateTech Solutions, Inc. and their post-closing treatment",
        "February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This schedule details the benefit plans summarized in {D["07"]} and states how
        each will be handled after the Closing."""),
        h("1. INNOVATETECH 401(K) PLAN"),
        p("""Safe harbor plan with a 4% company match; annual employer cost about $2.1 million.
        The plan continues after the Closing and will be merged into the GlobalTech 401(k)
        Savings Plan on January 1, 2026. After the merger, participants receive GlobalTech's
        match of 100% of contributions up to 5% of pay, with full credit for prior service."""),
        h("2. HEALTH AND WELFARE"),
        p("""Medical PPO and HMO options insured through Pacifica Health Plans, plus dental and
        vision; annual employer cost about $1.8 million. Coverage continues unchanged through
        December 31, 2025. Employees enroll in GlobalTech plans at the autumn open enrollment,
        effective January 1, 2026, with credit for 2025 deductibles already paid."""),
        h("3. 2016 EQUITY INCENTIVE PLAN"),
        p("""2,500,000 shares reserved; options over 1,800,000 shares granted and outstanding.
        Vested options are cashed out at the Closing and unvested options are converted into
        GlobalTech options at an exchange ratio of 0.62. No further grants will be made."""),
        h("4. SEVERANCE POLICY"),
        p("""Two weeks of base pay per year of service, with a minimum of four weeks. GlobalTech
        will keep this policy in place for 12 months after the Closing."""),
        h("5. PAID TIME OFF"),
        p("""Accrued paid time off liability at December 31, 2024 was $640,000. Balances carry
        over into GlobalTech's paid time off program."""),
        h("6. ANNUAL BONUS PLAN"),
        p("""The 2025 bonus plan has a target pool of $2,400,000, paid in March 2026 based on
        company and individual results."""),
        h("7. UNITED KINGDOM PENSION"),
        p("""InnovateTech UK Limited auto-enrolls its six employees in a defined contribution
        pension with a 5% employer contribution."""),
        h("8. COMPLIANCE"),
        p("""Form 5500 filings are current, the 401(k) plan passed nondiscrimination testing for
        2023 and 2024, and there is no defined benefit or multiemployer plan."""),
        h("9. OTHER PROGRAMS"),
        p("""Paid parental leave of 16 weeks, tuition reimbursement up to $5,250 per year,
        commuter benefits and a $600 annual wellness stipend. GlobalTech will honor these
        programs through December 31, 2025."""),
        h("10. INTEGRATION TIMELINE"),
        p("""Payroll moves to GlobalTech by August 1, 2025 under the transition services
        arrangement; health coverage moves on January 1, 2026; the 401(k) plan merger also takes
        effect on January 1, 2026."""),
    ]
    return header, blocks


def doc_21() -> Body:
    """Major customer contract summaries."""
    header = [
        "Summaries of InnovateTech's five largest customer agreements",
        "Prepared for GlobalTech Corporation - March 10, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""These Major Customer Contract Summaries support Part A of {D["08"]}. They also
        record the status of the customer consents that are a closing condition under
        Section 6.1(d) of {D["01"]}."""),
        h("1. MEGACORP INDUSTRIES - MASTER SERVICES AGREEMENT"),
        p("""Effective January 1, 2020, amended January 2023. Term through December 31, 2027,
        renewing automatically unless either party gives 90 days' notice. Annual value
        $12,576,000, which was 24% of 2024 revenue, making MegaCorp the largest customer."""),
        p("""Pricing is per monitored node with a 3% annual escalator. Service level: 99.9%
        monthly uptime, with service credits of up to 10% of monthly fees."""),
        p("""Change of control: MegaCorp may terminate if control of InnovateTech changes
        without its written consent. Consent was requested on January 10, 2025 and OBTAINED on
        February 8, 2025, signed by Gregory Hale, Chief Procurement Officer. The consent is
        conditioned on GlobalTech keeping a dedicated support team of at least eight engineers
        and hosting MegaCorp data only in United States regions for 24 months."""),
        p("""Risks: customer concentration at 24% of revenue, and a benchmarking clause that
        lets MegaCorp request a price review in 2026, which could reduce fees by up to 8%."""),
        h("2. GLOBALBANK HOLDINGS - ENTERPRISE LICENSE AGREEMENT"),
        p("""Annual value $8,384,000 (16% of revenue). Term through June 30, 2025. The agreement
        requires 60 days' prior written notice of a change of control but gives no consent
        right. Notice was PROVIDED on January 15, 2025; GlobalBank's written acknowledgment is
        pending and is expected by March 15, 2025."""),
        p("""Renewal: a three-year extension at $8,900,000 per year is in negotiation. If it is
        not signed before June 30, 2025, the revenue is at risk."""),
        h("3. HEALTHFIRST SYSTEMS - SAAS SUBSCRIPTION AGREEMENT"),
        p("""Annual value $5,240,000 (10%). Term through December 2026. Includes a HIPAA
        business associate agreement. No change-of-control restriction."""),
        h("4. RETAILMAX INC. - ORDER FORM"),
        p("""Annual value $3,668,000 (7%). Term through September 2026. No change-of-control
        restriction. Expansion to two more business units is under discussion."""),
        h("5. TECHPRIME SOLUTIONS - SAAS SUBSCRIPTION AGREEMENT"),
        p("""Annual value $2,620,000 (5%), signed in 2024. Term through March 2027. No
        change-of-control restriction."""),
        h("CONSENT REQUIREMENTS SUMMARY"),
        ul(
            "MegaCorp Industries: consent OBTAINED February 8, 2025 (see Exhibit A hereto).",
            "GlobalBank Holdings: NOTICE PROVIDED January 15, 2025; acknowledgment pending.",
            "HealthFirst Systems, RetailMax Inc. and TechPrime Solutions: no consent required.",
        ),
        p(f"""Counsel's view on enforceability of these provisions is given in {D["24"]}."""),
        h("EXHIBIT A - MEGACORP CONSENT LETTER"),
        p("""MegaCorp Industries hereby consents to the change of control of InnovateTech
        Solutions, Inc. resulting from its acquisition by GlobalTech Corporation, subject to the
        support-team and data-residency conditions stated above. Dated February 8, 2025. Signed:
        Gregory Hale, Chief Procurement Officer, MegaCorp Industries."""),
        h("ACCOUNT HISTORY AND CONTACTS"),
        p("""MegaCorp has grown from 1,200 to 4,800 monitored nodes since 2020; its executive
        sponsor is Gregory Hale. GlobalBank's sponsor is Laura Kim, Head of Data Engineering.
        HealthFirst's usage grew 30% in 2024; RetailMax renewed early in 2024; TechPrime went
        live in May 2024."""),
        h("PAYMENT TERMS"),
        p("""All five customers pay annually in advance, net 30 days. MegaCorp and GlobalBank
        prepayments account for $2,950,000 of the deferred revenue balance at December 31,
        2024."""),
    ]
    return header, blocks


def doc_22() -> Body:
    """Major vendor contract summaries."""
    header = ["Summaries of InnovateTech's material vendor agreements", "February 15, 2025"]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""These summaries support Part B of {D["08"]}. Together the four material vendor
        agreements below carry annual spend of about $4,850,000."""),
        h("1. STRATUS CLOUD SERVICES - ENTERPRISE HOSTING AGREEMENT"),
        p("""Stratus Cloud Services has hosted the DataFlow Pro platform since 2021. Committed
        annual spend of
        $3,400,000 through December 2026. Actual 2024 spend was $3,150,000, so a shortfall
        true-up of up to $250,000 may be invoiced if usage does not grow. The agreement
        requires notice of a change of control within 30 days after it occurs; no consent is
        needed. A data processing addendum with standard contractual clauses covers UK
        personal data."""),
        h("2. SENTINEL SECOPS - MANAGED SECURITY MONITORING"),
        p("""Managed detection and response for production systems, $260,000 per year, term
        through June 2026, terminable by either party on 60 days' notice. GlobalTech plans to
        move these services to its own security operations center in 2026."""),
        h("3. CARTOGRAPHIC SYSTEMS INC. - GEOMESH SDK LICENSE"),
        p("""Embedded mapping library licensed for $120,000 per year through December 2026.
        The license may be assigned to an acquirer of InnovateTech without consent."""),
        h("4. MERIDIAN SHARED SERVICES LLC - SHARED SERVICES AGREEMENT"),
        p("""Payroll, IT and bookkeeping services from a company controlled by the founder,
        about $1,070,000 per year. This related-party agreement ends at the Closing and is
        replaced by the transition services agreement."""),
        h("BELOW-THRESHOLD VENDORS"),
        p("""Ledgerly Billing (subscription billing, $85,000 per year) and several smaller
        software subscriptions fall below the $100,000 threshold and are listed only in the data
        room."""),
        h("CONCENTRATION AND CONTINUITY"),
        p("""Production runs in a single Stratus region with a warm standby in a second region;
        the disaster recovery test in November 2024 restored service in 47 minutes."""),
        h("POST-CLOSING PLAN"),
        p("""GlobalTech plans to move the hosting workloads to its own cloud agreement after the
        Stratus commitment ends in December 2026, and to end the Sentinel SecOps contract at its
        June 2026 expiry."""),
    ]
    return header, blocks


def doc_23() -> Body:
    """Independent auditor's report."""
    header = [
        "Crandall Pierce LLP, San Jose, California",
        "To the Board of Directors and Stockholders of InnovateTech Solutions, Inc.",
        "February 20, 2025",
    ]
    blocks: list[Block] = [
        h("OPINION"),
        p(f"""We have audited the consolidated financial statements of InnovateTech Solutions,
        Inc. and its subsidiary, which comprise the balance sheet as of December 31, 2024 and
        the related statements of income, stockholders' equity and cash flows for the year then
        ended, presented in {D["11"]}. In our opinion, the financial statements present fairly,
        in all material respects, the financial position of the Company as of December 31, 2024
        and the results of its operations and its cash flows for the year then ended, in
        accordance with accounting principles generally accepted in the United States. Our
        opinion is unmodified."""),
        h("BASIS FOR OPINION"),
        p("""We conducted our audit in accordance with auditing standards generally accepted in
        the United States. We are independent of the Company and have fulfilled our other
        ethical responsibilities."""),
        h("KEY AUDIT MATTERS"),
        p(
            """Revenue recognition. SaaS revenue is recognized ratably over the subscription
        period under ASC 606. We agreed the deferred revenue balance of $4,200,000 to customer
        contracts and invoices.""",
            "1.",
        ),
        p(
            """Stock-based compensation. Options are valued using the Black-Scholes model. We
        tested the inputs and the expense of $2,100,000 recorded under ASC 718.""",
            "2.",
        ),
        p(
            """Contingencies. We reviewed the litigation matters with the Company's counsel and
        concluded that the accrual of $350,000 is appropriate.""",
            "3.",
        ),
        p(
            """Capitalized software. We tested the $6,800,000 balance against project records and
        payroll data for the engineers whose time was capitalized.""",
            "4.",
        ),
        h("OTHER MATTERS"),
        p(f"""EBITDA and other non-GAAP measures are not covered by our opinion. We have not
        audited the narrative disclosures in {D["04"]}, which include our report by
        reference."""),
        h("INTERNAL CONTROL OBSERVATIONS"),
        p("""We identified two control deficiencies that are not material weaknesses: user
        access to the billing system was not reviewed quarterly, and evidence of review of
        manual journal entries was incomplete. Management has begun remediation."""),
        h("GOING CONCERN"),
        p("""We found no substantial doubt about the Company's ability to continue as a going
        concern for one year after the date of this report."""),
        h("RESPONSIBILITIES OF MANAGEMENT"),
        p("""Management is responsible for preparing and fairly presenting the financial
        statements in accordance with generally accepted accounting principles and for the
        internal control relevant to their preparation."""),
        h("SCOPE AND MATERIALITY"),
        p("""Overall materiality was $520,000, about 1% of revenue. The accounts of
        InnovateTech UK Limited were audited by component auditor Hale Finch LLP under our
        instructions."""),
        h("SIGNATURE"),
        p("""Crandall Pierce LLP. Engagement partner: Rachel Simmons, CPA."""),
    ]
    return header, blocks


def doc_24() -> Body:
    """Legal opinion letter of seller's counsel."""
    header = [
        "Wilson & Associates LLP, Palo Alto, California",
        "To GlobalTech Corporation - April 1, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""We have acted as counsel to InnovateTech Solutions, Inc. in connection with
        {D["01"]}. This letter is delivered under Section 6.1(e) of that agreement."""),
        h("DOCUMENTS REVIEWED"),
        p(f"""We reviewed the agreement and its schedules and exhibits, the Company's charter
        and bylaws, board and stockholder resolutions, {D["12"]}, {D["06"]}, and certificates
        of public officials and officers of the Company."""),
        h("OPINIONS"),
        p(
            """The Company is a corporation duly incorporated, validly existing and in good
        standing under Delaware law.""",
            "1.",
        ),
        p(
            """The Company has the corporate power and authority to execute and perform the
        Master Acquisition Agreement, and its execution has been duly authorized.""",
            "2.",
        ),
        p(
            """The transaction documents to which the Company is a party are valid and binding
        obligations enforceable against it in accordance with their terms.""",
            "3.",
        ),
        p(
            """Execution and performance do not conflict with the Company's charter or bylaws or
        with any material agreement, other than the change-of-control provisions of the
        MegaCorp and GlobalBank agreements, which have been addressed by consent and notice
        respectively.""",
            "4.",
        ),
        p(
            """Based on our review of the litigation schedule, the pending Smith and DataTech
        cases do not pose a material risk to completion of the transaction.""",
            "5.",
        ),
        p(
            """Based on our review of the intellectual property schedule, we know of no
        infringement claims against the Company other than the DataTech action.""",
            "6.",
        ),
        h("ASSUMPTIONS AND QUALIFICATIONS"),
        p("""Our opinions are subject to bankruptcy, insolvency and similar laws, to equitable
        principles and to public policy. We express no opinion on tax or antitrust matters. We
        relied on officer certificates and the representations in the Seller Disclosure
        Schedules as to factual matters."""),
        h("RELIANCE"),
        p("""This letter is for the benefit of GlobalTech Corporation and may not be relied upon
        by anyone else without our written consent."""),
        h("ADDITIONAL OPINIONS"),
        p(
            """The outstanding shares of the Company have been duly authorized and validly
        issued and are fully paid and non-assessable.""",
            "7.",
        ),
        p(
            """No consent of any governmental authority is required for the transaction other
        than under the Hart-Scott-Rodino Act, whose waiting period was terminated early on
        February 1, 2025.""",
            "8.",
        ),
        h("SIGNATURE"),
        p("""Wilson & Associates LLP, by Margaret Liu, Partner."""),
    ]
    return header, blocks


def doc_25() -> Body:
    """Closing checklist and conditions."""
    header = [
        "GlobalTech Corporation acquisition of InnovateTech Solutions, Inc.",
        "Scheduled Closing Date: April 1, 2025 - Status as of March 10, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This Closing Checklist tracks the conditions in Article VI of {D["01"]}, the
        deliverables of each party, and the obligations that continue after the Closing."""),
        h("PART 1 - PRE-CLOSING CONDITIONS"),
        p("""Regulatory approvals."""),
        ul(
            "HSR filing - COMPLETE. Filed January 6, 2025 on the signed letter of intent; early "
            "termination granted February 1, 2025.",
            "State filings - COMPLETE in all required jurisdictions.",
        ),
        p(f"""Third-party consents, per {D["21"]}."""),
        ul(
            "MegaCorp Industries consent - COMPLETE. Obtained February 8, 2025.",
            "GlobalBank Holdings - PENDING. Notice given January 15, 2025; acknowledgment "
            "expected by March 15, 2025. Notice only; not a consent condition.",
            "Stratus Cloud Services - notice due within 30 days after the Closing.",
        ),
        p("""Employee matters."""),
        ul(
            "Key employee retention agreements - COMPLETE. Signed February 12, 2025 by all five "
            "key employees.",
            "Founder consulting agreement - COMPLETE. Signed February 15, 2025.",
            "Non-competition agreements - COMPLETE. Signed by all six restricted parties.",
        ),
        p("""Legal and financial deliverables."""),
        ul(
            f"Legal opinion - agreed form settled; to be delivered at the Closing ({D['24']}).",
            "Good standing certificates - ORDERED; Delaware and California certificates "
            "expected March 28, 2025.",
            "Estimated closing statement - PENDING; due March 27, 2025.",
            "Silicon Harbor Bank payoff letter and patent lien release - REQUESTED.",
            "Apex Data Consulting demand ($45,000) - settlement PENDING.",
        ),
        p(f"""Intellectual property, per {D["17"]}."""),
        ul(
            "Lumen Data Labs confirmatory assignment - COMPLETE. Recorded February 7, 2025.",
            "Closing IP assignment to GlobalTech IP Holdings LLC - agreed form; signed at the "
            "Closing.",
        ),
        h("PART 2 - CLOSING DELIVERABLES"),
        p("""Seller deliverables: stock powers for all Shares; officer's certificate on
        representations; secretary's certificate with resolutions; resignations of directors;
        the closing IP assignment; consents listed above; executed transition services
        agreement."""),
        p(f"""Buyer deliverables: cash payment of $80,000,000 by wire transfer; stock
        consideration of 1,500,000 shares per {D["10"]}; escrow deposit of $15,000,000 with
        First National Trust Company per {D["09"]}."""),
        h("PART 3 - FUNDS FLOW"),
        p("""From the $80,000,000 cash payment: repayment of the Silicon Harbor Bank term loan
        (about $3,800,000 at the Closing); the Calder Street Partners advisory fee of
        $2,000,000; cash-out of vested options; the balance to the paying agent for the
        stockholders."""),
        h("PART 4 - POST-CLOSING OBLIGATIONS"),
        ul(
            f"Transition services for six months, until September 30, 2025, per {D['16']}.",
            f"Earnout payments for fiscal 2025 and 2026 per Exhibit C to {D['01']}.",
            f"Escrow releases at 6, 12 and 18 months per {D['09']}.",
            "Employee benefit plan merger on January 1, 2026 per Document: Employee Benefit "
            "Plan Schedule.",
            "Final working capital statement within 90 days after the Closing.",
            "Recording of the closing IP assignment within 10 business days.",
            "Resale registration statement on Form S-3 within 90 days.",
            "Retention bonus installments on April 1, 2026 and April 1, 2027.",
        ),
    ]
    return header, blocks
