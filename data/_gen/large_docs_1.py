"""Content of large_acquisition documents 01-08 (agreement, schedules, exhibits)."""

from __future__ import annotations

from .large_meta import D
from .pdf import Block, h, p, ul

Body = tuple[list[str], list[Block]]


def doc_01() -> Body:
    """Master Acquisition Agreement."""
    header = [
        "Dated as of February 15, 2025",
        "among GlobalTech Corporation, InnovateTech Solutions, Inc. "
        "and Robert Okafor, as Seller Representative",
    ]
    blocks: list[Block] = [
        h("RECITALS"),
        p(f"""This Master Acquisition Agreement (this "Agreement") is made among the parties
        named above. InnovateTech Solutions, Inc., a Delaware corporation with its principal
        office at 2100 Innovation Parkway, San Jose, California ("Seller" or the "Company"),
        develops the DataFlow Pro predictive analytics and anomaly detection platform.
        GlobalTech Corporation, a Delaware corporation headquartered at 1200 Commerce
        Boulevard, Austin, Texas ("Buyer"), wishes to acquire all of the outstanding capital
        stock of the Company (the "Shares") from its stockholders, who act through Robert Okafor
        as Seller Representative. The schedules referred to in this Agreement are collected in
        {D["02"]}, the exhibits in {D["03"]}, and the Company's exceptions to its
        representations in {D["04"]}."""),
        p("""The boards of directors of Buyer and the Company approved this Agreement on
        February 13, 2025, and stockholders holding 94.2% of the Company's voting stock delivered
        a written consent approving it on February 14, 2025."""),
        h("ARTICLE I - DEFINITIONS"),
        p(
            """'Acquisition' means the purchase by Buyer of all of the Shares on the terms of this
        Agreement.""",
            "1.1",
        ),
        p(
            """'Purchase Price' means One Hundred Twenty-Five Million Dollars ($125,000,000),
        subject to the working capital adjustment in Section 2.4 and to the earnout in
        Section 2.3.""",
            "1.2",
        ),
        p(
            """'Closing Date' means April 1, 2025, or another date the parties agree in writing,
        provided that the conditions in Article VI have been satisfied or waived.""",
            "1.3",
        ),
        p(
            """'Material Adverse Effect' means any event that, alone or together with other
        events, is materially adverse to the business, financial condition or results of
        operations of the Company, excluding general economic or industry-wide changes that do
        not affect the Company disproportionately.""",
            "1.4",
        ),
        p(
            """'Knowledge of Seller' means the actual knowledge, after reasonable inquiry, of the
        officers listed in Schedule 1.5.""",
            "1.5",
        ),
        p(
            """'Working Capital Target' means $8,500,000. 'Outside Date' means June 30, 2025.
        'Escrow Agent' means First National Trust Company.""",
            "1.6",
        ),
        h("ARTICLE II - PURCHASE AND SALE"),
        p(
            """At the Closing, the stockholders shall sell, and Buyer shall purchase, all of the
        Shares, free and clear of all liens.""",
            "2.1",
        ),
        p(
            f"""Buyer shall pay the Purchase Price as follows: (a) $80,000,000 in cash at the
        Closing by wire transfer of immediately available funds; (b) $30,000,000 in Buyer common
        stock, being 1,500,000 shares valued at $20.00 per share, as described in {D["10"]}; and
        (c) $15,000,000 deposited with the Escrow Agent under {D["09"]} to secure the
        stockholders' indemnification obligations.""",
            "2.2",
        ),
        p(
            """In addition to the Purchase Price, the stockholders may earn up to $10,000,000 of
        contingent consideration based on annual recurring revenue for fiscal years 2025 and
        2026, calculated and paid in accordance with Exhibit C (Earnout Terms).""",
            "2.3",
        ),
        p(
            f"""The Purchase Price is increased or decreased dollar for dollar by the amount by
        which Closing Working Capital exceeds or falls short of the Working Capital Target of
        $8,500,000, calculated under Schedule 2.4 using the accounting principles applied in
        {D["11"]}. Seller delivers an estimated closing statement three business days before the
        Closing; Buyer delivers a final statement within 90 days after the Closing, and
        unresolved disputes go to an independent accounting firm.""",
            "2.4",
        ),
        p(
            """Indebtedness of the Company, including the term loan with Silicon Harbor Bank,
        is repaid at the Closing out of the cash portion of the Purchase Price.""",
            "2.5",
        ),
        p(
            """Vested Company stock options are cancelled at the Closing in exchange for cash
        equal to their spread value. Unvested options are assumed by Buyer and converted into
        options over Buyer common stock on the same vesting schedule, as set out in
        Schedule 2.6.""",
            "2.6",
        ),
        h("ARTICLE III - REPRESENTATIONS AND WARRANTIES OF SELLER"),
        p(
            """The Company is duly incorporated, validly existing and in good standing under
        Delaware law and is qualified to do business where its operations require it.""",
            "3.1",
        ),
        p(
            f"""The capitalization of the Company is accurately described in {D["04"]}. No
        options, warrants or other rights to acquire Company stock exist except as disclosed
        there.""",
            "3.4",
        ),
        p(
            f"""Except as set forth in {D["12"]}, there are no legal proceedings pending or, to
        the Knowledge of Seller, threatened against the Company.""",
            "3.9",
        ),
        p(
            f"""All intellectual property owned or used by the Company is listed in {D["06"]}.
        Inventor and contractor assignments are documented in {D["17"]}.""",
            "3.12",
        ),
        p(
            f"""Every contract with annual value above $100,000 is listed in {D["08"]}, and each
        is in full force and effect.""",
            "3.13",
        ),
        p(
            f"""Employee matters, including key employees and benefit plans, are disclosed in
        {D["07"]}.""",
            "3.15",
        ),
        h("ARTICLE IV - REPRESENTATIONS AND WARRANTIES OF BUYER"),
        p(
            """Buyer is a Delaware corporation in good standing. Buyer has cash on hand sufficient
        to pay the cash portion of the Purchase Price, and the Consideration Shares, when issued,
        will be duly authorized, validly issued, fully paid and non-assessable.""",
            "4.1",
        ),
        h("ARTICLE V - COVENANTS"),
        p(
            """Until the Closing the Company shall operate in the ordinary course, shall not
        incur indebtedness above $500,000, and shall not hire or terminate any officer without
        Buyer's consent.""",
            "5.1",
        ),
        p(
            """The Company shall give Buyer reasonable access to its facilities, books and
        records during normal business hours.""",
            "5.2",
        ),
        p(
            f"""The parties remain bound by {D["13"]} until the Closing. Each founder and
        designated key employee shall deliver {D["14"]} at the Closing.""",
            "5.3",
        ),
        p(
            f"""The ancillary agreements to be delivered at or before the Closing are listed in
        {D["05"]}.""",
            "5.4",
        ),
        h("ARTICLE VI - CONDITIONS TO CLOSING"),
        p(
            f"""Buyer's obligation to close is subject to: (a) the accuracy of Seller's
        representations; (b) performance of Seller's covenants; (c) absence of a Material
        Adverse Effect; (d) receipt of the customer consents identified in {D["21"]}, including
        the consent of MegaCorp Industries; (e) receipt of {D["24"]} from Wilson & Associates
        LLP; and (f) retention agreements being in effect with at least four of the five key
        employees.""",
            "6.1",
        ),
        p(
            """Seller's obligation to close is subject to the accuracy of Buyer's representations
        and the delivery of the cash, shares and escrow deposit described in Section 2.2.""",
            "6.2",
        ),
        p(
            f"""Each party's obligation is subject to expiration or early termination of the
        waiting period under the Hart-Scott-Rodino Act and the absence of any injunction. The
        status of every condition is tracked in {D["25"]}.""",
            "6.3",
        ),
        h("ARTICLE VII - INDEMNIFICATION"),
        p(
            """General representations survive for 18 months after the Closing; fundamental
        representations (organization, authority, capitalization and taxes) survive for six
        years.""",
            "7.1",
        ),
        p(
            f"""Buyer may recover losses only above a deductible basket of $500,000. Recovery
        for breaches of general representations is capped at $15,000,000, the escrow amount;
        recovery for fundamental representations and fraud is capped at the Purchase Price.
        Claims are satisfied first from the escrow under {D["09"]}.""",
            "7.2",
        ),
        p(
            """The stockholders separately indemnify Buyer, without regard to the basket, for
        losses arising from the patent action brought by DataTech LLC.""",
            "7.3",
        ),
        h("ARTICLE VIII - TERMINATION"),
        p(
            """This Agreement may be terminated before the Closing by mutual written consent; by
        either party if the Closing has not occurred by the Outside Date of June 30, 2025; or by
        a party if the other materially breaches and does not cure within 20 days.""",
            "8.1",
        ),
        h("ARTICLE IX - MISCELLANEOUS"),
        p(
            """This Agreement is governed by Delaware law. Notices to Buyer go to its General
        Counsel, Alicia Moreno; notices to the stockholders go to the Seller
        Representative.""",
            "9.1",
        ),
        h("SIGNATURES"),
        p("""GLOBALTECH CORPORATION, by Thomas Reed, Chief Executive Officer. INNOVATETECH
        SOLUTIONS, INC., by Robert Okafor, Chief Executive Officer. SELLER REPRESENTATIVE:
        Robert Okafor."""),
    ]
    return header, blocks


def doc_02() -> Body:
    """Schedules to the acquisition agreement."""
    header = [
        f"Delivered under the {D['01'].removeprefix('Document: ')}",
        "GlobalTech Corporation / InnovateTech Solutions, Inc.",
        "Dated February 15, 2025, as supplemented March 27, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""These schedules are delivered with {D["01"]} and form part of it. Schedules that
        describe the Company's intellectual property, material contracts and workforce are
        delivered as stand-alone documents and are summarized below; the detailed disclosures
        in those documents control."""),
        h("SCHEDULE 1.5 - KNOWLEDGE PARTIES"),
        p("""For purposes of the definition of Knowledge of Seller, the knowledge parties are:
        Robert Okafor (Chief Executive Officer and founder), Daniel Brooks (Chief Financial
        Officer), Dr. Sarah Chen (Chief Technology Officer) and Elaine Park (General
        Counsel)."""),
        h("SCHEDULE 2.4 - WORKING CAPITAL METHODOLOGY"),
        p("""Closing Working Capital equals current assets (excluding cash, cash equivalents
        and income tax assets) minus current liabilities (excluding indebtedness, transaction
        expenses and income tax liabilities), measured as of 11:59 p.m. Pacific time on the day
        before the Closing Date. Deferred revenue is included as a current liability at its
        book value. The Working Capital Target is $8,500,000."""),
        p("""Reported working capital at December 31, 2024 was $10,300,000. The estimated
        closing statement delivered by Seller on March 27, 2025 shows Closing Working Capital of
        $9,150,000, which would increase the Purchase Price by $650,000, subject to the final
        statement due 90 days after the Closing."""),
        h("SCHEDULE 2.6 - TREATMENT OF EQUITY AWARDS"),
        p("""1,800,000 options are outstanding under the InnovateTech 2016 Equity Incentive
        Plan, of which 1,150,000 are vested and 650,000 unvested. Vested options are cashed out
        at the Closing. Unvested options convert into options over GlobalTech common stock at
        an exchange ratio of 0.62 GlobalTech shares per Company share, keeping their vesting
        dates."""),
        h("SCHEDULE 3.12 - INTELLECTUAL PROPERTY (SUMMARY)"),
        p(f"""The Company owns three issued United States patents and one pending application,
        three United States trademark registrations and two domain names. The complete list,
        including inventor assignments and open source usage, is in {D["06"]}."""),
        h("SCHEDULE 3.13 - MATERIAL CONTRACTS (SUMMARY)"),
        p(f"""Five customer agreements, four vendor agreements, one office lease and one credit
        facility exceed the $100,000 threshold. Details and change-of-control terms are in
        {D["08"]}."""),
        h("SCHEDULE 3.15 - EMPLOYEE MATTERS (SUMMARY)"),
        p(f"""The Company has 127 employees. Five key employees have signed retention
        agreements. Benefit plans, the employee census and the founder consulting arrangement
        are described in {D["07"]}."""),
        h("SCHEDULE 5.3 - REQUIRED CONSENTS AND NOTICES"),
        ul(
            "MegaCorp Industries, Master Services Agreement: written consent to change of "
            "control required.",
            "GlobalBank Holdings, Enterprise License Agreement: 60 days' prior written notice "
            "of change of control required; no consent right.",
            "Stratus Cloud Services, hosting agreement: notice within 30 days after the Closing.",
            "Silicon Harbor Bank, term loan: payoff letter required at the Closing.",
        ),
        h("SCHEDULE 6.1(f) - KEY EMPLOYEES"),
        p("""Dr. Sarah Chen, Michael Rodriguez, Jennifer Walsh, David Kim and Amanda Foster.
        The closing condition is satisfied if retention agreements with at least four of these
        five individuals are in effect at the Closing."""),
    ]
    return header, blocks


def doc_03() -> Body:
    """Exhibits to the acquisition agreement, including the earnout terms."""
    header = [
        "Exhibits A through F to the Master Acquisition Agreement",
        "dated as of February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INDEX OF EXHIBITS"),
        p(f"""The following exhibits are attached to {D["01"]}: Exhibit A - Form of Escrow
        Agreement; Exhibit B - Stock Consideration; Exhibit C - Earnout Terms; Exhibit D - Form
        of Officer's Certificate; Exhibit E - Form of Legal Opinion; Exhibit F - Form of
        Non-Competition Agreement."""),
        h("EXHIBIT A - FORM OF ESCROW AGREEMENT"),
        p(f"""The agreed form was negotiated with First National Trust Company and was signed
        without material change as {D["09"]}. It provides for a $15,000,000 escrow held for 18
        months with staged releases."""),
        h("EXHIBIT B - STOCK CONSIDERATION"),
        p(f"""The share portion of the Purchase Price, its valuation, lock-up and registration
        rights are set out in {D["10"]}."""),
        h("EXHIBIT C - EARNOUT TERMS"),
        p("""Earnout Payments. The stockholders may receive up to $10,000,000 in aggregate
        Earnout Payments, in cash, in addition to the $125,000,000 Purchase Price."""),
        p("""First Earnout Period (fiscal year 2025). If ARR at December 31, 2025 equals or
        exceeds $58,000,000, Buyer pays $4,000,000. If ARR is between 90% and 100% of that
        target, the payment is reduced proportionally; below 90% nothing is payable for the
        period."""),
        p("""Second Earnout Period (fiscal year 2026). If ARR at December 31, 2026 equals or
        exceeds $68,000,000, Buyer pays $6,000,000, with the same 90% floor and proportional
        reduction."""),
        p("""ARR means annualized recurring subscription revenue from DataFlow Pro customers,
        excluding professional services, one-time fees and revenue from customers acquired by
        Buyer through other acquisitions."""),
        p("""Buyer delivers an earnout statement within 45 days after each period. The Seller
        Representative may dispute it within 30 days; unresolved disputes are decided by
        Meridian Valuation Group acting as expert, not arbitrator. Payments are due within 60
        days after the statement becomes final."""),
        p("""Buyer shall operate the DataFlow Pro business in good faith and shall not take
        action with the primary purpose of avoiding an Earnout Payment. If Buyer sells the
        business before December 31, 2026, all unpaid Earnout Payments accelerate."""),
        h("EXHIBIT D - FORM OF OFFICER'S CERTIFICATE"),
        p("""An officer of the Company certifies at the Closing that the conditions in
        Section 6.1(a) through (c) are satisfied, attaching the updated capitalization table."""),
        h("EXHIBIT E - FORM OF LEGAL OPINION"),
        p("""Seller's counsel opines on organization, authority, enforceability, absence of
        conflicts and pending litigation. The executed opinion is delivered at the Closing."""),
        h("EXHIBIT F - FORM OF NON-COMPETITION AGREEMENT"),
        p("""The form binds the founder and each key employee for the restricted periods and
        territory described in the executed non-competition agreement."""),
    ]
    return header, blocks


def doc_04() -> Body:
    """Seller disclosure schedules."""
    header = [
        "Delivered by InnovateTech Solutions, Inc. to GlobalTech Corporation",
        "February 15, 2025",
    ]
    blocks: list[Block] = [
        h("PRELIMINARY STATEMENT"),
        p(f"""These disclosure schedules qualify the representations in Article III of {D["01"]}.
        Section numbers match the sections of that Article."""),
        h("SECTION 3.1 - ORGANIZATION"),
        p("""The Company was incorporated in Delaware on March 3, 2014 and is qualified to do
        business in California, Texas, New York and Washington. It has one subsidiary,
        InnovateTech UK Limited, a private company registered in England and Wales with six
        employees based in London."""),
        h("SECTION 3.4 - CAPITALIZATION"),
        p("""Authorized capital: 50,000,000 shares of common stock and 15,000,000 shares of
        preferred stock. Issued and outstanding: 18,400,000 shares of common stock and 9,600,000
        shares of Series A and Series B preferred stock, all of which convert into common stock
        immediately before the Closing. 2,500,000 shares are reserved under the 2016 Equity
        Incentive Plan, with options over 1,800,000 shares outstanding."""),
        h("SECTION 3.6 - FINANCIAL STATEMENTS"),
        p(f"""The audited balance sheet at December 31, 2024 and related statements for the
        year then ended are attached as {D["11"]}. Unaudited January 2025 management accounts
        show revenue of $4,610,000 for the month."""),
        h("SECTION 3.7 - ABSENCE OF CHANGES"),
        p("""Since December 31, 2024 the Company has hired four engineers, increased list
        prices for new DataFlow Pro subscriptions by 3%, and renewed its directors and officers
        insurance policy. No dividends have been declared."""),
        h("SECTION 3.9 - LITIGATION"),
        p(f"""Two lawsuits are pending and one claim has been threatened. Each is described in
        {D["12"]}, which is incorporated here by reference."""),
        h("SECTION 3.10 - TAXES"),
        p("""The California Franchise Tax Board is examining the Company's research and
        development credit of $310,000 claimed for tax year 2021. No assessment has been issued.
        All federal and state returns through 2023 have been filed."""),
        h("SECTION 3.11 - COMPLIANCE AND CERTIFICATIONS"),
        p("""The Company holds a SOC 2 Type II report for the period ended September 30, 2024
        with no exceptions noted, and an ISO 27001 certificate valid until August 2026."""),
        h("SECTION 3.16 - INSURANCE"),
        ul(
            "Directors and officers liability: $5,000,000 limit, $50,000 deductible.",
            "Errors and omissions and cyber liability: $3,000,000 limit, $25,000 deductible.",
            "General liability: $2,000,000 limit.",
            "Employment practices liability: $1,000,000 limit, $75,000 retention.",
        ),
        p("""The employment practices liability policy has accepted tender of the Smith matter.
        The errors and omissions policy excludes patent infringement claims, so the DataTech
        action is not insured."""),
        h("SECTION 3.17 - RELATED PARTY TRANSACTIONS"),
        p("""Meridian Shared Services LLC, a company controlled by Robert Okafor, has provided
        payroll, IT support and bookkeeping services to the Company since 2019 for fees of
        about $1,070,000 per year. These services continue after Closing under the transition
        services agreement."""),
        h("SECTION 3.18 - DATA PRIVACY"),
        p("""In June 2023 a phishing incident exposed 212 customer support tickets containing
        business contact details. Affected customers were notified within 72 hours. No regulator
        opened an inquiry."""),
        h("SECTION 3.19 - BROKERS"),
        p("""Calder Street Partners acts as the Company's financial advisor. Its fee of
        $2,000,000 is a transaction expense paid at the Closing out of the cash
        consideration."""),
        h("SECTION 3.8 - REAL PROPERTY"),
        p("""The Company owns no real property. It leases its San Jose headquarters (see the
        material contracts schedule) and a serviced office in London for InnovateTech UK Limited
        at GBP 4,200 per month on a rolling three-month term."""),
        h("SECTION 3.14 - CUSTOMERS AND SUPPLIERS"),
        p("""The five largest customers accounted for 62% of 2024 revenue; MegaCorp Industries
        alone accounted for 24%. No customer among the top five has given notice of termination
        or of a material reduction in volume. The largest supplier is Stratus Cloud Services,
        which hosts the DataFlow Pro platform."""),
        h("SECTION 3.20 - ENVIRONMENTAL MATTERS"),
        p("""The Company's operations are limited to offices and cloud-hosted software. It has
        received no environmental notices and holds no environmental permits."""),
        h("SECTION 3.21 - EXPORT CONTROLS AND SANCTIONS"),
        p("""DataFlow Pro is classified under ECCN 5D992 as mass-market encryption software. The
        Company has no customers in sanctioned countries and screens new customers against the
        OFAC lists through its billing system."""),
        h("SECTION 3.22 - BANK ACCOUNTS"),
        p("""Operating and payroll accounts are held at Silicon Harbor Bank; InnovateTech UK
        Limited holds one operating account at Barclays. Authorized signatories are Robert
        Okafor and Daniel Brooks."""),
    ]
    return header, blocks


def doc_05() -> Body:
    """Index of ancillary agreements."""
    header = [
        "GlobalTech Corporation acquisition of InnovateTech Solutions, Inc.",
        "Prepared by Hartley Sloane LLP, counsel to Buyer - March 20, 2025",
    ]
    blocks: list[Block] = [
        h("PURPOSE"),
        p("""This index lists each ancillary agreement entered into in connection with the
        acquisition, its parties, execution status and principal terms, so that the closing team
        can confirm that every agreement is signed or in agreed form."""),
        h("1. CONFIDENTIALITY"),
        p(f"""{D["13"]}. Parties: GlobalTech Corporation and InnovateTech Solutions, Inc.
        Signed November 4, 2024. Status: executed; confidentiality obligations are superseded at
        the Closing by the acquisition agreement. Principal terms: mutual two-year term, clean
        team protocol for customer pricing, 12-month employee non-solicitation."""),
        h("2. RESTRICTIVE COVENANTS"),
        p(f"""{D["14"]}. Parties: GlobalTech Corporation, Robert Okafor and the five key
        employees. Signed February 15, 2025, effective at the Closing. Status: executed by all
        six individuals. Principal terms: three-year restricted period for the founder and
        two years for key employees."""),
        h("3. FOUNDER SERVICES"),
        p(f"""{D["15"]}. Parties: GlobalTech Corporation and Robert Okafor. Signed February 15,
        2025, effective at the Closing. Status: executed. Principal terms: 12-month term,
        monthly fee of $35,000, customer transition bonus."""),
        h("4. TRANSITION SERVICES"),
        p(f"""{D["16"]}. Parties: GlobalTech Corporation and Meridian Shared Services LLC.
        Status: agreed form, to be signed at the Closing. Principal terms: six-month term for
        payroll, IT help desk, accounting and facilities services."""),
        h("5. OTHER CLOSING AGREEMENTS"),
        ul(
            "Escrow Agreement with First National Trust Company - executed February 15, 2025.",
            "Key employee retention agreements (five) - executed February 12, 2025.",
            "Confirmatory patent assignment - agreed form, to be signed at the Closing.",
            "Lock-up letters from stockholders receiving Consideration Shares - 41 of 43 "
            "returned as of March 20, 2025.",
            "Seller Representative engagement letter - executed February 15, 2025.",
        ),
        h("EXECUTION TIMETABLE"),
        p("""Outstanding signatures must be collected by March 28, 2025 so that the signature
        pages can be released from escrow by counsel on the Closing Date of April 1, 2025.
        Hartley Sloane LLP holds all signature pages in trust pending release."""),
        h("GOVERNING LAW OF THE ANCILLARY AGREEMENTS"),
        p("""All four ancillary agreements are governed by Delaware law. Disputes under the
        Transition Services Agreement are first referred to the service managers and then to
        senior executives before either party may go to court."""),
        h("RESPONSIBLE COUNSEL"),
        p("""Buyer: Hartley Sloane LLP, lead partner Nathan Cole. Seller and stockholders:
        Wilson & Associates LLP, lead partner Margaret Liu. Escrow Agent: in-house counsel of
        First National Trust Company."""),
        h("EFFECT OF TERMINATION BEFORE CLOSING"),
        p("""If the acquisition agreement is terminated before the Closing, only the
        Non-Disclosure Agreement survives. The Non-Competition Agreement, the Consulting
        Agreement, the retention agreements and the lock-up letters terminate automatically,
        and the Transition Services Agreement is never signed."""),
    ]
    return header, blocks


def doc_06() -> Body:
    """Schedule 3.12 - intellectual property."""
    header = [
        "Schedule to the Master Acquisition Agreement",
        "InnovateTech Solutions, Inc. - February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This schedule lists the intellectual property owned or used by the Company, as
        required by Section 3.12 of {D["01"]}."""),
        h("PART A - ISSUED PATENTS"),
        p("""US Patent 10,123,456 - Machine Learning System for Predictive Analytics. Filed
        March 2019, issued 2021, expires March 2039. Inventors: Dr. Sarah Chen and Priya
        Natarajan."""),
        p("""US Patent 10,234,567 - Distributed Data Processing Architecture. Filed June 2020,
        issued 2022, expires June 2040. Inventors: David Kim and Marco Bellini (a former
        contractor of Lumen Data Labs)."""),
        p("""US Patent 10,345,678 - Real-time Anomaly Detection Method. Filed January 2021,
        issued 2023, expires January 2041. Inventors: Dr. Sarah Chen and Michael Rodriguez."""),
        h("PART B - PENDING APPLICATIONS"),
        p("""US Application 17/456,789 - Automated Workflow Optimization. Filed 2024; first
        office action expected in the third quarter of 2025."""),
        p(f"""Inventor and contractor assignments for each patent and application, including a
        confirmatory assignment curing a gap in the chain of title for US Patent 10,234,567, are
        described in {D["17"]}."""),
        h("PART C - TRADEMARKS AND DOMAINS"),
        p(f"""Registered United States trademarks: INNOVATETECH (word mark), Reg. No. 5,123,456;
        INNOVATETECH (logo), Reg. No. 5,234,567; DATAFLOW PRO, Reg. No. 5,345,678. Renewal
        dates, classes and the pending application are listed in {D["18"]}. Domain names:
        innovatetech.com and dataflowpro.io."""),
        h("PART D - TRADE SECRETS"),
        p("""The Company's trade secrets include its model-training pipelines, feature
        engineering libraries and customer-specific anomaly thresholds. All current employees
        and contractors have signed confidentiality and invention assignment agreements."""),
        h("PART E - OPEN SOURCE SOFTWARE"),
        p("""The distributed DataFlow Pro product uses components licensed under the Apache 2.0,
        MIT and BSD licenses. One AGPL-licensed library used in internal test tooling was
        removed in January 2025. No copyleft-licensed code is distributed to customers."""),
        h("PART F - INBOUND LICENSES"),
        p("""GeoMesh mapping SDK, licensed from Cartographic Systems Inc. for $120,000 per year
        through December 2026; assignable to an acquirer of the Company. Standard commercial
        off-the-shelf software licenses are omitted."""),
        h("PART G - INFRINGEMENT CLAIMS"),
        p(f"""DataTech LLC alleges that the anomaly detection features of DataFlow Pro infringe
        its US Patent 9,876,543. The action is described in {D["12"]}. The Company believes the
        claim lacks merit because its method is covered by its own earlier-filed patent
        10,345,678. No other infringement claims have been made against or by the Company."""),
        h("PART H - SOURCE CODE ESCROW"),
        p("""Under its agreement with HealthFirst Systems, the Company deposits DataFlow Pro
        source code quarterly with Iron Vault Escrow. HealthFirst may obtain a release only if
        the Company becomes insolvent or stops supporting the product; no release has ever been
        requested."""),
        h("PART I - DEVELOPMENT PRACTICES"),
        p("""Engineers submit invention disclosures through an internal form reviewed monthly
        by the CTO and outside patent counsel. Eleven disclosures were reviewed in 2024; one
        became the pending application and the others were kept as trade secrets."""),
    ]
    return header, blocks


def doc_07() -> Body:
    """Schedule 3.15 - employee matters."""
    header = [
        "Schedule to the Master Acquisition Agreement",
        "InnovateTech Solutions, Inc. - February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This schedule responds to Section 3.15 of {D["01"]} and describes the Company's
        workforce, key employees and benefit arrangements as of January 31, 2025."""),
        h("EMPLOYEE CENSUS"),
        ul(
            "Total employees: 127 (120 full-time and 7 part-time).",
            "Engineering: 68 employees (24 senior, 32 mid-level, 12 junior).",
            "Sales and marketing: 28 employees.",
            "Customer success: 18 employees.",
            "General and administrative: 13 employees.",
        ),
        p("""Six of these employees work for InnovateTech UK Limited in London; eleven are
        employed in the United States on H-1B visas, and GlobalTech has agreed to file the
        related sponsorship transfers after the Closing."""),
        h("KEY EMPLOYEES"),
        p(f"""Each key employee has signed a retention agreement, described in {D["19"]}:"""),
        ul(
            "Dr. Sarah Chen - Chief Technology Officer - 15 years of experience - retention "
            "bonus of $1,200,000.",
            "Michael Rodriguez - VP Engineering - leads a 45-person team - retention bonus of "
            "$800,000.",
            "Jennifer Walsh - VP Sales - achieved an $18 million quota in 2024 - retention bonus "
            "of $600,000.",
            "David Kim - Principal Architect - core platform expertise - retention bonus of "
            "$500,000.",
            "Amanda Foster - VP Customer Success - 95% gross retention rate - retention bonus "
            "of $400,000.",
        ),
        p("""Aggregate retention bonuses are $3,500,000, funded by Buyer in addition to the
        Purchase Price."""),
        h("FOUNDER"),
        p(f"""Robert Okafor, founder and Chief Executive Officer, will resign as an employee at
        the Closing and provide advisory services under {D["15"]}. He is also bound by
        {D["14"]}."""),
        h("BENEFIT PLANS"),
        p(f"""The Company maintains the plans below; details and post-closing treatment are in
        {D["20"]}."""),
        ul(
            "InnovateTech 401(k) Plan - 4% company match - annual cost about $2.1 million.",
            "Health insurance - PPO and HMO options - annual cost about $1.8 million.",
            "2016 Equity Incentive Plan - 2,500,000 shares reserved, 1,800,000 granted.",
            "Severance policy - two weeks of base pay per year of service, minimum four weeks.",
        ),
        p(f"""Treatment of equity awards is governed by Section 2.6 of {D["01"]}."""),
        h("LABOR MATTERS"),
        p("""No employees are represented by a union. No layoffs requiring notice under the
        WARN Act have occurred in the past three years. Nine independent contractors were
        reviewed in January 2025; two who worked full-time hours were converted to employees
        on February 1, 2025."""),
        h("COMPENSATION AND LOCATION"),
        p("""Total annual base payroll is about $21.6 million. Average base salary for
        engineers is $182,000. Forty-one employees work fully remotely from nine states; the
        remainder work from the San Jose headquarters or the London office."""),
        h("EMPLOYMENT CLAIMS"),
        p("""One former employee has sued the Company for wrongful termination; the case is
        listed on the litigation schedule and is insured. No other employment claims or agency
        charges are pending."""),
    ]
    return header, blocks


def doc_08() -> Body:
    """Schedule 3.13 - material contracts."""
    header = [
        "Schedule to the Master Acquisition Agreement",
        "InnovateTech Solutions, Inc. - February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This schedule lists every contract of the Company with annual value above
        $100,000, as required by Section 3.13 of {D["01"]}. Customer agreements are summarized
        in more detail in {D["21"]}; vendor agreements in {D["22"]}."""),
        h("PART A - CUSTOMER AGREEMENTS"),
        p("""1. MegaCorp Industries - Master Services Agreement. Annual value: $12,576,000.
        Term: through December 2027. Change of control: consent required (OBTAINED February 8,
        2025). Renewal: automatic, unless either party gives 90 days' notice."""),
        p("""2. GlobalBank Holdings - Enterprise License Agreement. Annual value: $8,384,000.
        Term: through June 2025. Change of control: 60 days' prior notice required (PROVIDED
        January 15, 2025); acknowledgment still pending. Renewal: a three-year extension is in
        negotiation."""),
        p("""3. HealthFirst Systems - SaaS Subscription Agreement. Annual value: $5,240,000.
        Term: through December 2026. Change of control: no restrictions."""),
        p("""4. RetailMax Inc. - Order Form under standard terms. Annual value: $3,668,000.
        Term: through September 2026. Change of control: no restrictions. Expansion to two
        more business units is under discussion."""),
        p("""5. TechPrime Solutions - SaaS Subscription Agreement, signed in 2024. Annual value:
        $2,620,000. Term: through March 2027. Change of control: no restrictions."""),
        h("PART B - VENDOR AGREEMENTS"),
        ul(
            "Stratus Cloud Services - cloud hosting - $3,400,000 committed annual spend "
            "through December 2026 - notice of change of control within 30 days after Closing.",
            "Cartographic Systems Inc. - GeoMesh SDK license - $120,000 per year.",
            "Sentinel SecOps - managed security monitoring - $260,000 per year.",
            "Meridian Shared Services LLC - payroll, IT and bookkeeping - about $1,070,000 per "
            "year (related party).",
        ),
        h("PART C - REAL PROPERTY AND FINANCING"),
        p("""Office lease, 2100 Innovation Parkway, San Jose - 38,000 square feet - annual
        rent $1,080,000 - expires October 2028 - landlord consent not required. Term loan with
        Silicon Harbor Bank - $4,100,000 outstanding at December 31, 2024 - repaid at the
        Closing under a payoff letter."""),
        h("PART D - CONSENT SUMMARY"),
        p("""Of the contracts above, only the MegaCorp agreement requires consent to the change
        of control; the GlobalBank agreement and the Stratus hosting agreement require notice
        only. Status of each is tracked on the closing checklist."""),
        h("PART E - CONTRACTS EXPIRING WITHIN TWELVE MONTHS"),
        p("""The GlobalBank Holdings agreement expires on June 30, 2025. No other listed
        contract expires before the end of 2025."""),
        h("PART F - PREFERENTIAL TERMS"),
        p("""HealthFirst Systems has a most-favored-customer clause covering list prices for
        healthcare customers of similar size. No contract grants exclusivity to a customer or
        restricts the Company from entering any market."""),
    ]
    return header, blocks
