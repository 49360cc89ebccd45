"""Content of large_acquisition documents 09-16 (escrow, stock, financials, ancillaries)."""

from __future__ import annotations

from .large_meta import D
from .pdf import Block, h, p, ul

Body = tuple[list[str], list[Block]]


def doc_09() -> Body:
    """Escrow agreement."""
    header = [
        "Dated as of February 15, 2025",
        "among GlobalTech Corporation, Robert Okafor as Seller Representative, "
        "and First National Trust Company as Escrow Agent",
    ]
    blocks: list[Block] = [
        h("RECITALS"),
        p(f"""{D["01"]} requires Buyer to deposit part of the Purchase Price with an escrow agent
        to secure the indemnification obligations of the former stockholders of InnovateTech
        Solutions, Inc. This agreement follows the form attached as Exhibit A in {D["03"]}."""),
        h("1. APPOINTMENT"),
        p("""Buyer and the Seller Representative appoint First National Trust Company, a
        Delaware trust company acting through its Wilmington office, as Escrow Agent, and the
        Escrow Agent accepts the appointment on the terms of this agreement."""),
        h("2. ESCROW DEPOSIT"),
        p("""At the Closing, Buyer shall deposit $15,000,000 (12% of the Purchase Price) out of
        the Purchase Price into a segregated account designated 'GlobalTech - InnovateTech
        Indemnity Escrow'. The deposit and all earnings on it are the Escrow Funds."""),
        h("3. INVESTMENT OF ESCROW FUNDS"),
        p("""The Escrow Agent shall invest the Escrow Funds in the FNTC Government Obligations
        Fund, a money market fund holding only United States Treasury securities, unless Buyer
        and the Seller Representative jointly instruct otherwise. Earnings are allocated to the
        former stockholders and reported to them annually."""),
        h("4. RELEASE SCHEDULE"),
        p("""Absent pending claims, the Escrow Agent shall release Escrow Funds to the paying
        agent for the former stockholders as follows:"""),
        ul(
            "6 months after the Closing (October 1, 2025): $5,000,000.",
            "12 months after the Closing (April 1, 2026): $5,000,000.",
            "18 months after the Closing (October 1, 2026): the remaining balance.",
        ),
        p("""The escrow therefore has a term of 18 months from the Closing Date. On each release
        date the Escrow Agent retains the amount of any unresolved claim until it is resolved
        by joint written instructions or a final court order."""),
        h("5. CLAIMS PROCEDURE"),
        p("""Buyer may deliver a claim notice describing the loss in reasonable detail. The
        Seller Representative has 30 days to object. If no objection is received, the Escrow
        Agent pays the claimed amount to Buyer on the 31st day. Objected claims are paid only
        on joint written instructions or a final, non-appealable order."""),
        h("6. INDEMNIFICATION PARAMETERS"),
        p(f"""The escrow secures the indemnities in Article VII of {D["01"]}: a deductible basket
        of $500,000; a cap of $15,000,000 (the escrow amount) for general representations; and
        the full Purchase Price for fundamental representations. Losses from the DataTech
        action described in {D["12"]} may be claimed without regard to the basket."""),
        h("7. WORKING CAPITAL SHORTFALL"),
        p(f"""If the final Closing Working Capital is below the $8,500,000 target, Buyer may
        recover the shortfall from the Escrow Funds. Working capital is measured on the basis
        used in {D["11"]}."""),
        h("8. FEES OF THE ESCROW AGENT"),
        p("""An acceptance fee of $5,000 and an annual administration fee of $25,000, each
        borne equally by Buyer and the former stockholders. The stockholders' share is deducted
        from the Escrow Funds."""),
        h("9. DUTIES AND LIABILITY OF THE ESCROW AGENT"),
        p("""The Escrow Agent's duties are purely ministerial and limited to those stated here.
        It is liable only for its gross negligence or willful misconduct and may resign on 30
        days' notice, after which Buyer and the Seller Representative shall appoint a
        successor bank with trust powers."""),
        h("10. TAX REPORTING"),
        p("""Buyer and the Seller Representative shall each deliver an IRS Form W-9 to the
        Escrow Agent before the Closing."""),
        h("SIGNATURES"),
        p("""GLOBALTECH CORPORATION, by Kevin Osei, Chief Financial Officer. SELLER
        REPRESENTATIVE: Robert Okafor. FIRST NATIONAL TRUST COMPANY, by Linda Marsh, Vice
        President."""),
    ]
    return header, blocks


def doc_10() -> Body:
    """Stock purchase details (Exhibit B)."""
    header = [
        "Exhibit B to the Master Acquisition Agreement",
        "Stock Consideration - February 15, 2025",
    ]
    blocks: list[Block] = [
        h("1. CONSIDERATION SHARES"),
        p(f"""Under Section 2.2(b) of {D["01"]}, $30,000,000 of the Purchase Price is paid in
        1,500,000 shares of GlobalTech Corporation common stock, par value $0.001 per share,
        listed on the Nasdaq Global Select Market under the symbol GLTC (the Consideration
        Shares)."""),
        h("2. VALUATION"),
        p("""The parties fixed the value of each Consideration Share at $20.00. The 20-trading-
        day volume-weighted average price ending February 12, 2025 was $19.87; the parties
        rounded to $20.00 as part of the overall price negotiation. The number of shares is not
        adjusted for changes in the trading price between signing and Closing, but is adjusted
        for stock splits, stock dividends and similar events."""),
        h("3. ALLOCATION AMONG STOCKHOLDERS"),
        p("""Consideration Shares are allocated among the 43 stockholders of InnovateTech pro
        rata to their fully diluted holdings. Robert Okafor receives 412,500 shares (27.5%).
        Fractional shares are paid in cash at $20.00 per share. Three stockholders who are not
        accredited investors receive cash instead of shares at the same price."""),
        h("4. LOCK-UP"),
        p("""Each recipient signs a lock-up letter. One third of the shares may be sold from 6
        months after the Closing, a further third from 12 months, and the final third from 18
        months. Transfers to family trusts are permitted if the transferee signs the lock-up."""),
        h("5. REGISTRATION RIGHTS"),
        p("""GlobalTech shall file a resale registration statement on Form S-3 within 90 days
        after the Closing and keep it effective for two years or until all Consideration Shares
        can be sold without restriction under Rule 144."""),
        h("6. LEGENDS AND BOOK ENTRY"),
        p("""The Consideration Shares are issued in book-entry form through GlobalTech's
        transfer agent and carry a restrictive legend until the lock-up lapses and the resale
        registration is effective."""),
        h("7. VALUATION SUPPORT"),
        p(f"""The per-share value of InnovateTech implied by the Purchase Price, and the option
        exchange ratio of 0.62, were derived from the fully diluted capitalization and the
        balance sheet presented in {D["11"]}."""),
        h("8. TAX TREATMENT"),
        p("""The acquisition is not intended to qualify as a tax-free reorganization. Recipients
        recognize gain on the Consideration Shares at their fair market value at the Closing."""),
        h("9. LISTING"),
        p("""GlobalTech filed a notification of additional shares with Nasdaq on March 3, 2025
        covering the Consideration Shares."""),
        h("10. RIGHTS OF HOLDERS"),
        p("""The Consideration Shares carry full voting and dividend rights from issuance. The
        lock-up limits transfer only, not voting."""),
        h("11. ILLUSTRATION"),
        p("""A stockholder holding 1% of InnovateTech on a fully diluted basis would receive
        15,000 Consideration Shares, valued at $300,000 at $20.00 per share, one third of which
        could be sold six months after the Closing."""),
    ]
    return header, blocks


def doc_11() -> Body:
    """Audited financial statements for fiscal 2024."""
    header = [
        "InnovateTech Solutions, Inc. and Subsidiary",
        "Consolidated financial statements for the year ended December 31, 2024",
        "with comparative figures for 2023",
    ]
    blocks: list[Block] = [
        h("BASIS OF PRESENTATION"),
        p(f"""These consolidated statements include InnovateTech Solutions, Inc. and its
        subsidiary InnovateTech UK Limited and were audited by Crandall Pierce LLP, whose
        opinion is presented in {D["23"]}. They are incorporated into the disclosure package by
        Section 3.6 of {D["04"]}."""),
        h("CONSOLIDATED BALANCE SHEET - DECEMBER 31, 2024"),
        p("""Current assets: cash and cash equivalents $6,420,000; accounts receivable, net,
        $9,860,000; prepaid expenses and other current assets $2,220,000; total current assets
        $18,500,000."""),
        p("""Non-current assets: property and equipment, net, $3,150,000; capitalized software,
        net, $6,800,000; operating lease right-of-use assets $4,300,000; goodwill $11,200,000;
        intangible assets, net, $2,900,000; other assets $400,000; total non-current assets
        $28,750,000. Total Assets: $47,250,000."""),
        p("""Current liabilities: accounts payable $1,180,000; accrued expenses $1,120,000;
        deferred revenue $4,200,000; current portion of term loan $1,200,000; current operating
        lease liabilities $500,000; total current liabilities $8,200,000."""),
        p("""Long-term liabilities: term loan, non-current, $2,900,000; operating lease
        liabilities, non-current, $1,200,000; total long-term liabilities $4,100,000. Total
        Liabilities: $12,300,000. Stockholders' Equity: $34,950,000."""),
        p(f"""Working capital (current assets less current liabilities) was $10,300,000, above
        the $8,500,000 target in {D["01"]}."""),
        h("CONSOLIDATED STATEMENT OF INCOME - YEAR ENDED DECEMBER 31, 2024"),
        p("""Total Revenue: $52,400,000 (2023: $39,800,000), consisting of SaaS subscription
        revenue of $41,920,000 and professional services revenue of $10,480,000."""),
        p("""Cost of revenue: $15,720,000, giving gross profit of $36,680,000 and a gross
        margin of 70%."""),
        p("""Operating expenses: $28,600,000, consisting of research and development
        $12,100,000, sales and marketing $11,500,000 and general and administrative
        $5,000,000."""),
        p("""Operating income: $8,080,000. Interest expense of $310,000 and interest income of
        $190,000 give income before taxes of $7,960,000. Income tax expense: $1,496,000. Net
        Income: $6,464,000."""),
        p("""EBITDA (a non-GAAP measure): $11,200,000, being operating income plus depreciation
        and amortization of $3,120,000."""),
        h("CONSOLIDATED STATEMENT OF CASH FLOWS"),
        p("""Operating activities: net income $6,464,000, plus depreciation and amortization
        $3,120,000 and stock-based compensation $2,100,000, less working capital changes of
        $1,350,000; net cash from operating activities $10,334,000."""),
        p("""Investing activities: purchases of equipment $1,420,000 and capitalized software
        $2,600,000; net cash used $4,020,000. Financing activities: term loan repayments
        $1,200,000, offset by option exercise proceeds of $310,000; net cash used $890,000."""),
        p("""Net increase in cash: $5,424,000. Cash at beginning of year $996,000; cash at end
        of year $6,420,000."""),
        h("REVENUE BY CUSTOMER"),
        p(f"""The five largest customers generated 62% of 2024 revenue. Contract terms are
        summarized in {D["21"]}."""),
        ul(
            "MegaCorp Industries: $12,576,000 (24%) - contract through 2027.",
            "GlobalBank Holdings: $8,384,000 (16%) - renewal pending.",
            "HealthFirst Systems: $5,240,000 (10%) - multi-year agreement.",
            "RetailMax Inc.: $3,668,000 (7%) - expansion discussions ongoing.",
            "TechPrime Solutions: $2,620,000 (5%) - new customer in 2024.",
        ),
        h("NOTES TO THE FINANCIAL STATEMENTS"),
        p(
            """Significant accounting policies. Revenue is recognized under ASC 606. SaaS
        subscriptions are recognized ratably over the subscription term; professional services
        as performed.""",
            "Note 1.",
        ),
        p(
            """Deferred revenue of $4,200,000 represents annual subscriptions invoiced in advance,
        of which $2,950,000 relates to MegaCorp Industries and GlobalBank Holdings.""",
            "Note 2.",
        ),
        p(
            f"""Contingencies. An accrual of $350,000 is recorded for the Smith employment matter,
        with an insurance recovery receivable of $275,000 included in other current assets. No
        accrual is recorded for the DataTech patent action, which management considers
        reasonably possible but not probable. Both matters are described in {D["12"]}.""",
            "Note 3.",
        ),
        p(
            f"""Related parties. Meridian Shared Services LLC, controlled by the founder, charged
        $1,070,000 for payroll, IT and bookkeeping services in 2024. The founder's post-closing
        arrangement is described in {D["15"]}.""",
            "Note 4.",
        ),
        p(
            """Debt. The term loan with Silicon Harbor Bank bears interest at SOFR plus 3.25%
        and had $4,100,000 outstanding at year end, of which $1,200,000 is current.""",
            "Note 5.",
        ),
        p(
            """Goodwill of $11,200,000 arose from the 2021 acquisition of Streamline Metrics and
        was tested for impairment at October 1, 2024 with no impairment identified.""",
            "Note 6.",
        ),
        p(
            """Stock-based compensation of $2,100,000 was recognized under ASC 718 using the
        Black-Scholes model. Options over 1,800,000 shares were outstanding at year end.""",
            "Note 7.",
        ),
        p(
            """Subsequent events. On February 15, 2025 the Company and its stockholders entered
        into an agreement for the sale of all of the Company's shares to GlobalTech Corporation
        for $125,000,000. Subsequent events were evaluated through February 20, 2025.""",
            "Note 8.",
        ),
        p(
            """Leases. The San Jose headquarters lease runs until October 2028. Operating lease
        cost for 2024 was $1,260,000.""",
            "Note 9.",
        ),
        p(
            """Income taxes. The effective tax rate of 18.8% is below the statutory rate mainly
        because of federal and California research credits.""",
            "Note 10.",
        ),
        h("STATEMENT OF STOCKHOLDERS' EQUITY"),
        p("""Equity at January 1, 2024 was $26,076,000. Net income of $6,464,000, stock-based
        compensation of $2,100,000 and option exercises of $310,000 brought equity to
        $34,950,000 at December 31, 2024. No dividends were paid."""),
        h("SUPPLEMENTARY REVENUE INFORMATION (UNAUDITED)"),
        p("""Quarterly revenue in 2024: first quarter $12,100,000; second quarter $12,800,000;
        third quarter $13,400,000; fourth quarter $14,100,000. Revenue by region: United States
        88%, United Kingdom and European Union 9%, Canada 3%."""),
    ]
    return header, blocks


def doc_12() -> Body:
    """Schedule 3.9 - litigation and claims."""
    header = [
        "Schedule to the Master Acquisition Agreement",
        "InnovateTech Solutions, Inc. - February 15, 2025",
    ]
    blocks: list[Block] = [
        h("INTRODUCTION"),
        p(f"""This Schedule 3.9 lists pending and threatened proceedings against InnovateTech, as
        referenced in Section 3.9 of {D["04"]}."""),
        h("PENDING LITIGATION"),
        p(f"""1. Smith v. InnovateTech Solutions, Inc. Court: California Superior Court, Santa
        Clara County. Claims: wrongful termination and discrimination, brought by a former sales
        manager dismissed in 2023. Status: discovery phase; trial set for September 2025.
        Estimated exposure: $150,000 - $350,000, covered by insurance under the employment
        practices liability policy after a $75,000 retention. Counsel's assessment appears in
        {D["24"]}."""),
        p("""2. DataTech LLC v. InnovateTech Solutions, Inc. Court: United States District
        Court, Northern District of California. Claims: patent infringement of US Patent
        9,876,543, owned by DataTech. Status: motion to dismiss pending; hearing set for March
        2025. Estimated exposure: preliminary assessment of $500,000 - $2,000,000. Not covered
        by insurance, because the errors and omissions policy excludes patent claims; the
        stockholders give a special indemnity secured by the escrow."""),
        p(f"""The IP analysis supporting the Company's non-infringement and invalidity defenses
        is summarized in {D["06"]}."""),
        h("AGGREGATE EXPOSURE"),
        p("""Combined estimated exposure for the two pending cases is $650,000 to $2,350,000.
        Of that range, up to $350,000 (the Smith matter) is insured, and the DataTech exposure
        is backed by the stockholders' special indemnity."""),
        h("THREATENED CLAIMS"),
        p("""A former contractor, Apex Data Consulting, sent a demand letter on January 8, 2025
        claiming $45,000 in unpaid invoices. The Company disputes $12,000 of the amount and
        expects to settle before the Closing."""),
        h("INSURANCE COVERAGE"),
        ul(
            "Directors and officers: $5,000,000 limit, $50,000 deductible.",
            "Errors and omissions: $3,000,000 limit, $25,000 deductible (patent exclusion).",
            "General liability: $2,000,000 limit.",
            "Employment practices liability: $1,000,000 limit, $75,000 retention.",
        ),
        h("LITIGATION RESERVES"),
        p("""The audited balance sheet at December 31, 2024 carries an accrual of $350,000 for
        the Smith matter and no accrual for the DataTech action."""),
        h("DEFENSE COUNSEL AND NEXT STEPS"),
        p("""The Smith case is defended by Baxter Reyes LLP, appointed by the employment
        practices insurer; mediation is scheduled for June 2025. The DataTech case is defended
        by Kline Patent Group. On January 20, 2025 the Company petitioned the Patent Trial and
        Appeal Board for inter partes review of DataTech's patent and asked the court to stay
        the case pending that review."""),
        h("SETTLED MATTERS IN THE LAST FIVE YEARS"),
        p("""In 2022 the Company settled a billing dispute with Orchid Logistics, a former
        customer, for $60,000. No other matters were resolved by settlement or judgment."""),
    ]
    return header, blocks


def doc_13() -> Body:
    """Mutual non-disclosure agreement."""
    header = [
        "Mutual Non-Disclosure Agreement dated November 4, 2024",
        "between GlobalTech Corporation and InnovateTech Solutions, Inc.",
    ]
    blocks: list[Block] = [
        h("1. PURPOSE"),
        p("""GlobalTech Corporation and InnovateTech Solutions, Inc. are evaluating a possible
        acquisition of InnovateTech by GlobalTech (the Transaction). Each party will disclose
        Evaluation Material to the other solely to evaluate and negotiate the Transaction."""),
        h("2. EVALUATION MATERIAL"),
        p("""Evaluation Material means all non-public information disclosed by a party, in any
        form, including financial results, source code, customer lists and pricing, product
        roadmaps, and employee compensation data, together with notes and analyses prepared by
        the recipient that contain it."""),
        h("3. OBLIGATIONS OF THE RECIPIENT"),
        p("""The recipient shall keep Evaluation Material confidential, use it only for the
        Transaction, and share it only with its directors, officers, employees, lenders and
        professional advisors who need to know it and are bound by duties of confidentiality.
        Each party is responsible for breaches by its representatives."""),
        h("4. CLEAN TEAM PROTOCOL"),
        p("""Customer-level pricing and the terms of the MegaCorp Industries and GlobalBank
        Holdings contracts are Clean Team Material. Only the six clean team members named in
        Annex 1, none of whom has pricing responsibility at GlobalTech, may review it, and only
        aggregated conclusions may be shared with the wider deal team."""),
        h("5. NON-SOLICITATION"),
        p("""For 12 months from the date of this agreement, GlobalTech shall not solicit for
        employment any InnovateTech employee it met or learned of through the Transaction.
        General advertisements not targeted at InnovateTech employees are permitted."""),
        h("6. NO CONTACT"),
        p("""GlobalTech shall not contact InnovateTech's customers, suppliers or employees about
        the Transaction without the prior consent of Robert Okafor."""),
        h("7. TERM"),
        p(f"""This agreement lasts two years from November 4, 2024. If the Transaction closes,
        its confidentiality provisions are superseded by the confidentiality covenant in
        {D["01"]}."""),
        h("8. RETURN OR DESTRUCTION"),
        p("""On request, the recipient shall return or destroy Evaluation Material within 10
        business days and certify destruction in writing, except for copies kept in automatic
        backups or required by law."""),
        h("9. COMPELLED DISCLOSURE"),
        p("""A recipient required by law to disclose Evaluation Material shall give prompt
        notice so the discloser can seek a protective order, and shall disclose only the portion
        legally required."""),
        h("10. NO OBLIGATION"),
        p("""Neither party is obliged to proceed with the Transaction unless and until a
        definitive agreement is signed."""),
        h("11. DATA ROOM"),
        p("""Evaluation Material is made available in a virtual data room operated by Vaultline.
        Downloads are watermarked with the user's name and logged; printing of Clean Team
        Material is disabled."""),
        h("12. REMEDIES AND GOVERNING LAW"),
        p("""A breach may cause irreparable harm, so the discloser may seek injunctive relief
        in addition to damages. This agreement is governed by Delaware law."""),
        h("SIGNATURES"),
        p("""GLOBALTECH CORPORATION, by Alicia Moreno, General Counsel. INNOVATETECH SOLUTIONS,
        INC., by Robert Okafor, Chief Executive Officer."""),
    ]
    return header, blocks


def doc_14() -> Body:
    """Non-competition agreement."""
    header = [
        "Dated February 15, 2025 and effective at the Closing",
        "GlobalTech Corporation and the Restricted Parties named below",
    ]
    blocks: list[Block] = [
        h("PARTIES AND BACKGROUND"),
        p(f"""This agreement is delivered under Section 5.3 of {D["01"]}. The Restricted
        Parties are Robert Okafor (the Founder) and the five key employees identified in
        {D["07"]}: Dr. Sarah Chen, Michael Rodriguez, Jennifer Walsh, David Kim and Amanda
        Foster. Each Restricted Party is a stockholder of InnovateTech and receives proceeds
        from the sale of the business."""),
        h("1. RESTRICTED BUSINESS"),
        p("""The Restricted Business is developing, marketing or selling predictive analytics,
        anomaly detection or data pipeline monitoring software that competes with the DataFlow
        Pro platform."""),
        h("2. RESTRICTED TERRITORY"),
        p("""The United States, Canada, the United Kingdom and the member states of the European
        Union, being the markets in which InnovateTech sold products in the two years before
        the Closing."""),
        h("3. RESTRICTED PERIOD"),
        p("""For the Founder, 36 months after the Closing Date (three years). For each key
        employee, 24 months after the Closing Date (two years)."""),
        h("4. NON-COMPETITION COVENANT"),
        p("""During the Restricted Period, no Restricted Party shall, within the Restricted
        Territory, own, manage, operate, be employed by or provide services to any Restricted
        Business, other than for GlobalTech."""),
        h("5. NON-SOLICITATION OF CUSTOMERS AND EMPLOYEES"),
        p("""During the Restricted Period, no Restricted Party shall solicit any customer that
        generated revenue for InnovateTech in the 24 months before the Closing, or induce any
        employee of GlobalTech or InnovateTech to leave."""),
        h("6. CONSIDERATION"),
        p("""$2,000,000 of the Purchase Price is allocated to the Founder's covenants. The key
        employees' covenants are given in consideration of their sale proceeds, continued
        employment and retention bonuses."""),
        h("7. PERMITTED ACTIVITIES"),
        p("""Passive ownership of up to 2% of a listed company, teaching and academic research,
        and the Founder's unpaid board service for the Bay Area Data Science Foundation are
        permitted."""),
        h("8. ENFORCEABILITY"),
        p("""The parties intend these covenants to fall within the sale-of-business exception
        in California Business and Professions Code Section 16601. If a court finds any
        restriction too broad, it shall be enforced to the maximum extent permitted. The
        Restricted Period is extended by any period of breach."""),
        h("9. NOTICE TO FUTURE EMPLOYERS"),
        p("""During the Restricted Period, each Restricted Party shall show this agreement to
        any prospective employer in the data analytics field before accepting an offer."""),
        h("10. INDEPENDENT ADVICE"),
        p("""Each Restricted Party confirms that he or she had the opportunity to consult
        independent counsel and considers the restrictions reasonable in view of the proceeds
        received from the sale."""),
        h("SIGNATURES"),
        p("""GLOBALTECH CORPORATION, by Thomas Reed, Chief Executive Officer. Robert Okafor.
        Dr. Sarah Chen. Michael Rodriguez. Jennifer Walsh. David Kim. Amanda Foster."""),
    ]
    return header, blocks


def doc_15() -> Body:
    """Founder consulting agreement."""
    header = [
        "Between GlobalTech Corporation and Robert Okafor",
        "Signed February 15, 2025; effective on the Closing Date (April 1, 2025)",
    ]
    blocks: list[Block] = [
        h("1. ENGAGEMENT"),
        p(f"""Robert Okafor, founder and chief executive of InnovateTech, resigns as an employee
        at the Closing under {D["01"]}. GlobalTech engages him as an independent consultant to
        support the transition of customers, the product roadmap and the integration of the
        DataFlow Pro business."""),
        h("2. TERM"),
        p("""The term is 12 months from the Closing Date and may be extended by up to six
        months by mutual written agreement."""),
        h("3. CONSULTING SERVICES"),
        ul(
            "Introducing GlobalTech executives to MegaCorp Industries and GlobalBank Holdings "
            "and supporting renewal discussions.",
            "Advising GlobalTech's Chief Strategy Officer, Hannah Whitaker, on the DataFlow Pro "
            "product roadmap.",
            "Attending monthly integration steering committee meetings.",
            "Mentoring the engineering leadership listed in the employee schedule.",
        ),
        p("""The Consultant shall be available for at least 40 hours and at most 60 hours per
        month."""),
        h("4. FEES"),
        p("""GlobalTech pays a consulting fee of $35,000 per month, in arrears, within 15 days
        of receiving an invoice. Total fees over the initial 12-month term are $420,000."""),
        h("5. CUSTOMER TRANSITION BONUS"),
        p("""GlobalTech pays a one-time bonus of $250,000 if GlobalBank Holdings signs a renewal
        of at least three years before December 31, 2025."""),
        h("6. EXPENSES"),
        p("""Reasonable travel expenses are reimbursed; any single expense above $5,000 needs
        prior written approval."""),
        h("7. RELATIONSHIP TO OTHER ARRANGEMENTS"),
        p(f"""The Founder's employment status at the Closing is recorded in {D["07"]}. He does
        not participate in the retention program under {D["19"]}, and his restrictive
        covenants are in the Non-Competition Agreement."""),
        h("8. INDEPENDENT CONTRACTOR"),
        p("""The Consultant is not an employee, is responsible for his own taxes, and is not
        eligible for GlobalTech benefit plans."""),
        h("9. WORK PRODUCT"),
        p("""All inventions, documents and other work product created in providing the services
        belong to GlobalTech, and the Consultant assigns them to GlobalTech on creation."""),
        h("10. TERMINATION"),
        p("""Either party may terminate on 30 days' written notice. GlobalTech may terminate
        immediately for cause. If GlobalTech terminates without cause, it pays the remaining
        monthly fees for the initial term in a lump sum."""),
        h("11. REPORTING"),
        p("""The Consultant delivers a short written summary of activities and hours to the
        Chief Strategy Officer by the fifth day of each month, which supports the monthly
        invoice."""),
        h("12. NON-DISPARAGEMENT"),
        p("""During the term and for two years afterwards, the Consultant shall not make public
        statements disparaging GlobalTech, its products or its officers."""),
        h("SIGNATURES"),
        p("""GLOBALTECH CORPORATION, by Hannah Whitaker, Chief Strategy Officer. Robert
        Okafor, Consultant."""),
    ]
    return header, blocks


def doc_16() -> Body:
    """Transition services agreement."""
    header = [
        "Between GlobalTech Corporation and Meridian Shared Services LLC",
        "Agreed form dated March 20, 2025; effective on the Closing Date",
    ]
    blocks: list[Block] = [
        h("BACKGROUND"),
        p(f"""Meridian Shared Services LLC (the Provider), a company controlled by Robert
        Okafor, has supplied payroll, IT and accounting services to InnovateTech since 2019.
        To keep the business running after the Closing under {D["01"]}, GlobalTech (the
        Recipient) needs those services to continue until they are migrated to GlobalTech's
        own systems."""),
        h("1. SERVICES AND MONTHLY FEES"),
        ul(
            "Payroll processing for InnovateTech employees: $18,000 per month.",
            "IT help desk and endpoint management: $24,000 per month.",
            "Accounting and monthly close support: $15,000 per month.",
            "Facilities and office services at 2100 Innovation Parkway, San Jose: $32,000 per "
            "month.",
        ),
        p("""Total fees are $89,000 per month for all services, or $534,000 over the initial
        term."""),
        h("2. TERM"),
        p(f"""The services run for six months after the Closing Date, until September 30, 2025.
        The TSA is listed as a post-closing obligation in {D["25"]}. GlobalTech may extend any
        service for up to three additional months at 110% of its monthly fee, by giving notice
        at least 30 days before the service would end."""),
        h("3. EARLY TERMINATION OF A SERVICE"),
        p("""GlobalTech may end any individual service on 30 days' notice, and the fee for that
        service stops at the end of the notice period."""),
        h("4. SERVICE LEVELS"),
        p("""IT tickets must receive a response within four business hours; payroll must be
        processed with at least 99.5% accuracy; the monthly close package is delivered by the
        fifth business day of each month. Repeated failures give GlobalTech a 10% fee credit
        for the affected service."""),
        h("5. MIGRATION PLAN"),
        p("""Payroll migrates to GlobalTech's payroll platform by August 1, 2025; IT endpoints
        move to GlobalTech management by July 15, 2025; accounting moves to GlobalTech's
        general ledger after the June 2025 close."""),
        h("6. SERVICE MANAGERS"),
        p("""Provider: Carla Jimenez, Operations Director. Recipient: Owen Fletcher, Integration
        Director, GlobalTech Corporation."""),
        h("7. INVOICING AND LIABILITY"),
        p("""The Provider invoices monthly in arrears, payable within 30 days. Each party's
        liability is capped at the fees paid under this agreement, except for breaches of
        confidentiality or data protection obligations."""),
        h("8. DATA PROTECTION"),
        p("""The Provider processes employee personal data only on GlobalTech's instructions and
        shall notify GlobalTech of any security incident within 48 hours."""),
        h("9. EXCLUDED SERVICES"),
        p("""The Provider does not give legal or tax advice and does not handle customer-facing
        support, which transfers to GlobalTech on the Closing Date."""),
        h("10. STAFFING AND GOVERNANCE"),
        p("""The Provider dedicates seven full-time staff to the services. Service managers
        meet weekly; unresolved issues escalate to GlobalTech's Chief Information Officer, Raj
        Mehta, and to Robert Okafor for the Provider."""),
    ]
    return header, blocks
