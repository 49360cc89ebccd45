"""Content of the 10 test_acquisition PDFs (TechCorp Industries acquiring StartupXYZ LLC).

Citations use three styles: "Document: <Title>", exhibit/schedule names, and file names.
"""

from __future__ import annotations

from collections.abc import Callable

from .pdf import Block, h, p, ul

Body = tuple[list[str], list[Block]]

AGREEMENT = "Document: Acquisition Agreement"
DILIGENCE = "Document: Due Diligence Report"
IP_LETTER = "Document: IP Certification Letter"
RISK = "Document: Risk Assessment Memo"
ADJUST = "Document: Financial Adjustments Memo"
OPINION = "Document: Legal Opinion Letter"
NDA = "Document: Non-Disclosure Agreement"
HSR = "Document: Regulatory Approval Letter"
CONSENTS = "Document: Customer Consent Letters"
CHECKLIST = "Document: Closing Checklist"

EX_A = "Exhibit A - Financial Terms"
EX_B = "Exhibit B - Stock Valuation"
EX_C = "Exhibit C - Earnout Terms"
SCH_1 = "Schedule 1 - IP Assets"
SCH_2 = "Schedule 2 - Material Contracts"
SCH_3 = "Schedule 3 - Employee Transition Plan"

PATENTS = (
    ("10,123,456", "Neural Network Optimization Method"),
    ("10,234,567", "Distributed AI Training System"),
    ("10,345,678", "Real-time Data Processing Pipeline"),
    ("10,456,789", "Adaptive Model Compression Technique"),
    ("10,512,334", "Privacy-Preserving Feature Extraction"),
    ("10,598,120", "Edge Inference Scheduling System"),
    ("10,677,045", "Automated Hyperparameter Search Method"),
    ("10,733,912", "Streaming Anomaly Scoring Engine"),
    ("10,801,276", "Multi-Tenant Model Serving Platform"),
    ("10,889,530", "Synthetic Training Data Generator"),
    ("10,954,118", "Explainability Report Generation Method"),
    ("11,027,661", "Federated Gradient Aggregation Protocol"),
)


def acquisition_agreement() -> Body:
    """The Acquisition Agreement; its financial terms live in Exhibit A (document 05)."""
    header = [
        "Dated January 15, 2025",
        "TechCorp Industries, Inc. (Buyer) and StartupXYZ LLC (Seller)",
    ]
    return header, [
        p("""This Acquisition Agreement is made on January 15, 2025 between TechCorp Industries,
        Inc., a Delaware corporation located at 500 Technology Drive, San Francisco, CA 94105
        ("Buyer"), and StartupXYZ LLC, a Delaware limited liability company located at 123
        Innovation Way, Palo Alto, CA 94301 ("Seller")."""),
        h("ARTICLE I - DEFINITIONS"),
        p(
            """'Acquisition' means Buyer's purchase of all outstanding membership interests of
        Seller.""",
            "1.1",
        ),
        p(
            f"""'Purchase Price' means $45,000,000, payable and adjustable as provided in
        {EX_A}.""",
            "1.2",
        ),
        p(
            """'Closing Date' means March 1, 2025, subject to the conditions in Article IV.""",
            "1.3",
        ),
        p(f"""'Employee Matters' are governed by {SCH_3}.""", "1.4"),
        p(
            """'Material Adverse Change' means a change that reduces Seller's trailing
        twelve-month revenue by more than 15% or impairs its core AI platform.""",
            "1.5",
        ),
        h("ARTICLE II - PURCHASE AND SALE"),
        p(
            """Seller's members shall sell, and Buyer shall buy, all membership interests of
        Seller at the Closing.""",
            "2.1",
        ),
        p(
            f"""The Purchase Price is paid in three parts: (a) $30,000,000 in cash at the Closing;
        (b) $10,000,000 in Buyer common stock, valued as described in {EX_B}; and (c)
        $5,000,000 in earnout payments, as described in {EX_C}.""",
            "2.2",
        ),
        p(
            f"""The amounts in Section 2.2 are subject to the working capital, debt and other
        adjustments specified in {EX_A}.""",
            "2.3",
        ),
        h("ARTICLE III - REPRESENTATIONS AND WARRANTIES"),
        p(
            f"""Seller's financial statements, as reviewed in {DILIGENCE}, are accurate and
        complete in all material respects.""",
            "3.1",
        ),
        p(
            f"""All intellectual property of Seller is listed in {SCH_1} and is free of
        encumbrances, as certified in {IP_LETTER}.""",
            "3.2",
        ),
        p(
            f"""All material contracts are listed in {SCH_2}. Contracts with change-of-control
        provisions are identified there.""",
            "3.3",
        ),
        h("ARTICLE IV - CONDITIONS TO CLOSING"),
        p(
            f"""Buyer's obligation to close is subject to: (a) regulatory clearance, evidenced by
        {HSR}; (b) completion of due diligence under {DILIGENCE}; (c) no Material Adverse
        Change; (d) the consents of material customers, evidenced by {CONSENTS}; and (e) receipt
        of {OPINION} from Seller's counsel.""",
            "4.1",
        ),
        p(f"""Both parties acknowledge the risks described in {RISK}.""", "4.2"),
        h("ARTICLE V - CONFIDENTIALITY"),
        p(
            f"""This Agreement is subject to {NDA}, signed by the parties on October 1, 2024, whose
        obligations continue until the Closing.""",
            "5.1",
        ),
        h("ARTICLE VI - GENERAL"),
        p(
            """This Agreement is governed by Delaware law. Any amendment must be in writing and
        signed by both parties. Exhibits A to C and Schedules 1 to 3 form part of this
        Agreement.""",
            "6.1",
        ),
        h("SIGNATURES"),
        p("""TechCorp Industries, Inc., by James Mitchell, CEO. StartupXYZ LLC, by Sarah Chen,
        Founder and CEO."""),
    ]


def due_diligence_report() -> Body:
    """Morrison & Associates' due diligence report."""
    header = [
        "Confidential - prepared for TechCorp Industries, Inc.",
        "Subject: StartupXYZ LLC - Date: December 20, 2024",
        "Prepared by Morrison & Associates LLP",
    ]
    return header, [
        h("EXECUTIVE SUMMARY"),
        p(f"""Morrison & Associates LLP reviewed StartupXYZ LLC between October 7 and December
        13, 2024 for the acquisition now documented in {AGREEMENT}. We examined the virtual
        data room and interviewed 18 members of management. Overall, we found no issue that
        should stop the transaction, but several items require action before closing."""),
        h("1. FINANCIAL REVIEW"),
        ul(
            "Revenue for FY2024: $12.3 million, up 45% year over year.",
            "EBITDA: $2.1 million, a 17% margin.",
            "Cash: $3.2 million as of November 30, 2024.",
            f"Debt: $1.5 million venture loan from Bayview Capital, treated in {EX_A} of the "
            "agreement.",
        ),
        p(f"""Finding: the financial statements are materially accurate, but $340,000 of
        deferred revenue was recognized too early and should be restated. The price effect is
        calculated in {ADJUST}."""),
        h("2. INTELLECTUAL PROPERTY"),
        p(f"""StartupXYZ holds 12 patents covering AI and machine learning technology. Their
        validity was confirmed by {IP_LETTER}. We found no pending IP litigation; Seller's
        counsel will confirm this in {OPINION}. The full inventory appears in {SCH_1}."""),
        h("3. EMPLOYEES"),
        p(f"""StartupXYZ has 47 employees: 32 in engineering, 8 in sales and 7 in operations.
        Retention risk is HIGH for 5 senior engineers, and we recommend retention bonuses under
        {SCH_3}. No employment disputes are pending."""),
        h("4. MATERIAL CONTRACTS"),
        p(f"""We reviewed 23 active customer contracts, listed in {SCH_2}. Three of them contain
        change-of-control clauses that require customer consent: MegaCorp Inc., DataFlow
        Systems and CloudTech Partners. The largest customer, MegaCorp, provides 28% of
        revenue; this concentration risk is analyzed in {RISK}."""),
        h("5. REGULATORY"),
        p(f"""StartupXYZ complies with applicable regulations. A Hart-Scott-Rodino filing is
        required; its timing is covered in {HSR}."""),
        h("6. RECOMMENDATIONS"),
        p(f"""We recommend proceeding, provided that TechCorp (a) obtains the three customer
        consents, (b) puts retention packages in place for key engineers, and (c) resolves the
        items in {ADJUST}."""),
    ]


def ip_certification_letter() -> Body:
    """PatentWatch's certification of the 12 patents."""
    header = [
        "PatentWatch Legal Services",
        "December 15, 2024 - To: James Mitchell, CEO, TechCorp Industries, Inc.",
        "Re: IP certification for the StartupXYZ LLC acquisition",
    ]
    patent_items = [f"US Patent {num}: {title}" for num, title in PATENTS]
    return header, [
        p(f"""Dear Mr. Mitchell: in connection with the proposed acquisition of StartupXYZ LLC
        described in {AGREEMENT}, we have reviewed StartupXYZ's intellectual property
        portfolio, including USPTO assignment records, maintenance fee payments and the
        company's invention assignment files."""),
        h("1. PATENTS"),
        p(f"""StartupXYZ owns 12 U.S. patents, listed in {SCH_1} and reproduced below. Each is
        valid, enforceable, recorded in StartupXYZ's name and free of liens. Maintenance fees
        are paid through 2025."""),
        ul(*patent_items),
        h("2. TRADEMARKS"),
        p("""StartupXYZ owns the registered marks STARTUPXYZ (Reg. No. 6,112,908) and
        NEURALFLOW (Reg. No. 6,240,517)."""),
        h("3. TRADE SECRETS"),
        p(f"""All employees have signed confidentiality and invention assignment agreements.
        TechCorp's access to source code during diligence is governed by {NDA}."""),
        h("4. OPEN SOURCE"),
        p("""No copyleft-licensed code is included in products shipped to customers."""),
        h("5. PENDING APPLICATION"),
        p(f"""One patent application, No. 17/456,789, titled "Advanced Federated Learning
        System", is pending and expected to issue in Q2 2025. We have flagged it to the deal
        team as a minor item for {RISK}."""),
        h("6. LITIGATION"),
        p(f"""No IP-related litigation is pending or threatened. We understand Seller's counsel
        will confirm this in {OPINION}."""),
        p("""TechCorp Industries, Inc. may rely on this certification for the acquisition.
        Sincerely, Daniel Ortiz, Registered Patent Attorney, PatentWatch Legal Services."""),
    ]


def risk_assessment_memo() -> Body:
    """Corporate development's risk ratings and mitigations."""
    header = [
        "To: TechCorp Board of Directors - From: Corporate Development Team",
        "Date: December 22, 2024 - Re: Risk assessment for the StartupXYZ acquisition",
    ]
    return header, [
        p(f"""This memo rates the main risks of the acquisition set out in {AGREEMENT} and the
        steps taken to mitigate them."""),
        h("1. HIGH-PRIORITY RISKS"),
        p(
            f"""MegaCorp generates 28% of StartupXYZ revenue, about $3.4 million a year, and its
        contract has a change-of-control clause. Mitigation: obtain MegaCorp's consent before
        closing, to be recorded in {CONSENTS}.""",
            "1.1 Customer concentration (HIGH).",
        ),
        p(
            f"""Five senior engineers are critical to the product roadmap, and two of them have
        said they might leave after the acquisition. Mitigation: retention packages under
        {SCH_3}, at an estimated cost of $2.5 million.""",
            "1.2 Key employee retention (HIGH).",
        ),
        h("2. MEDIUM-PRIORITY RISKS"),
        p(
            f"""The $5 million earnout in {EX_C} pays $2.5 million if StartupXYZ revenue reaches
        $16.0 million in 2025 and another $2.5 million if it reaches $21.0 million in 2026. The
        parties could disagree on how revenue is measured. Mitigation: precise definitions and
        review by an independent accountant.""",
            "2.1 Earnout structure (MEDIUM).",
        ),
        p(
            """Integration is expected to cost $4.2 million over 18 months; overruns of 20-30% are
        common in technology deals.""",
            "2.2 Integration costs (MEDIUM).",
        ),
        h("3. LOW-PRIORITY RISKS"),
        p(
            f"""One patent application remains pending ({IP_LETTER}). The patent attorney
        estimates an 85% likelihood of allowance.""",
            "3.1 Pending patent application (LOW).",
        ),
        p(
            f"""An HSR filing is required but should clear without difficulty; see {HSR}.""",
            "3.2 Regulatory approval (LOW).",
        ),
        h("4. FINANCIAL IMPACT"),
        p(f"""The total risk-adjusted impact is estimated at $6.2 million to $8.7 million. It is
        reflected in the price adjustments and the escrow reserve in {ADJUST}."""),
        h("5. RECOMMENDATION"),
        p(f"""We recommend proceeding. The strategic value of StartupXYZ's AI platform justifies
        the price once mitigation costs are included, and these findings agree with
        {DILIGENCE}."""),
    ]


def financial_adjustments_memo() -> Body:
    """Finance memo that constitutes Exhibit A - Financial Terms."""
    header = [
        "Exhibit A - Financial Terms to the Acquisition Agreement",
        "To: Deal Team - From: TechCorp Finance Department",
        "Circulated December 23, 2024; attached as Exhibit A at signing on January 15, 2025",
    ]
    return header, [
        p(f"""This memorandum constitutes {EX_A} of {AGREEMENT}. It sets out the detailed
        financial terms, including the adjustments to the $45,000,000 purchase price that
        followed the findings of {DILIGENCE}."""),
        h("1. WORKING CAPITAL ADJUSTMENT"),
        p("""Target working capital is $1,200,000 and estimated closing working capital is
        $980,000, giving an adjustment of ($220,000)."""),
        h("2. DEBT ADJUSTMENT"),
        p("""The $1,500,000 Bayview Capital loan is repaid at closing. The prepayment premium of
        $45,000 and accrued interest of $130,000 are borne by Seller, an adjustment of
        ($175,000)."""),
        h("3. REVENUE RECOGNITION ADJUSTMENT"),
        p("""Deferred revenue of $340,000 must be restated, reducing EBITDA by $85,000. At the
        deal multiple of 15x, the value adjustment is ($1,275,000)."""),
        h("4. CONTINGENT LIABILITY RESERVE"),
        p(f"""Following {RISK}, a reserve of $1,300,000 is held in escrow for 18 months:
        $500,000 for customer concentration risk and $800,000 for integration
        contingencies."""),
        h("5. SUMMARY OF ADJUSTMENTS"),
        ul(
            "Original Purchase Price: $45,000,000",
            "Working Capital Adjustment: ($220,000)",
            "Debt Adjustment: ($175,000)",
            "Revenue Recognition Adjustment: ($1,275,000)",
            "Adjusted Purchase Price: $43,330,000",
            "Escrow reserve funded by Buyer: $1,300,000",
            "Total Buyer funding including the escrow reserve: $44,630,000",
        ),
        h("6. PAYMENT STRUCTURE"),
        p("""Section 2.2 of the Acquisition Agreement is applied as follows:"""),
        ul(
            "(a) Cash at closing: $28,330,000 (adjusted from $30,000,000).",
            f"(b) Stock: $10,000,000, being 250,000 TechCorp shares at $40.00 per share under "
            f"{EX_B}.",
            f"(c) Earnout: $5,000,000, unchanged, under {EX_C}.",
            "(d) Escrow: $1,300,000, released after 18 months if no claims are made.",
        ),
        h("7. STATUS"),
        p(f"""Seller's representatives accepted these terms on January 10, 2025. The closing
        statement and timing are tracked in {CHECKLIST} (see 10_closing_checklist.pdf)."""),
    ]


def legal_opinion_letter() -> Body:
    """Seller's counsel opinion, citing most other documents."""
    header = [
        "Wilson & Partners LLP, San Francisco",
        "February 24, 2025",
        "To: TechCorp Industries, Inc., 500 Technology Drive, San Francisco, CA 94105",
        "Re: Acquisition of StartupXYZ LLC",
    ]
    return header, [
        p(f"""Ladies and Gentlemen: we are counsel to StartupXYZ LLC (the "Company") for its
        acquisition by TechCorp Industries, Inc. under {AGREEMENT} dated January 15, 2025.
        This opinion is delivered under Section 4.1(e) of that agreement."""),
        h("DOCUMENTS REVIEWED"),
        ul(
            "The Acquisition Agreement with all Exhibits and Schedules.",
            f"{DILIGENCE} prepared by Morrison & Associates LLP.",
            f"{IP_LETTER} issued by PatentWatch Legal Services.",
            f"All contracts listed in {SCH_2}.",
            f"{NDA} between the parties.",
            f"{CONSENTS} (see 09_customer_consent_letters.pdf).",
            f"{HSR} from the Federal Trade Commission.",
            "The Company's certificate of formation, operating agreement and member consents.",
        ),
        h("OPINIONS"),
        p(
            """The Company is a limited liability company duly formed, validly existing and in
        good standing under Delaware law.""",
            "1. Status.",
        ),
        p(
            """The Company has full power and authority to sign and perform the Acquisition
        Agreement.""",
            "2. Authority.",
        ),
        p(
            """The Acquisition Agreement is a valid and binding obligation of the Company,
        enforceable in accordance with its terms.""",
            "3. Enforceability.",
        ),
        p(
            """Signing and performing the Acquisition Agreement does not breach the Company's
        organizational documents or any material contract, except the change-of-control
        clauses of three customer contracts. Consents from MegaCorp Inc. and DataFlow Systems
        have been received; the CloudTech Partners consent was still pending on the date of this
        letter.""",
            "4. No conflicts.",
        ),
        p(
            """No litigation, arbitration or governmental proceeding is pending or, to our
        knowledge, threatened against the Company. In particular, there is no IP-related
        litigation, consistent with the IP Certification Letter.""",
            "5. Litigation.",
        ),
        p(
            """The Company materially complies with applicable law. The HSR waiting period was
        terminated early on January 28, 2025.""",
            "6. Regulatory.",
        ),
        h("QUALIFICATIONS"),
        p("""We give no opinion on tax matters, which are addressed in a separate tax opinion.
        This opinion is limited to Delaware law and United States federal law. It is provided
        solely for TechCorp's benefit in connection with the acquisition."""),
        p("""Very truly yours, Wilson & Partners LLP, by Jennifer Walsh, Partner."""),
    ]


def nda() -> Body:
    """Mutual NDA of October 1, 2024, with a later file note."""
    header = [
        "Entered into as of October 1, 2024",
        "TechCorp Industries, Inc., 500 Technology Drive, San Francisco, CA 94105",
        "StartupXYZ LLC, 123 Innovation Way, Palo Alto, CA 94301",
    ]
    return header, [
        h("PURPOSE"),
        p("""TechCorp and StartupXYZ (each a "Party") wish to discuss a possible business
        relationship, including a possible acquisition of StartupXYZ by TechCorp (the
        "Purpose"). This Mutual Non-Disclosure Agreement protects information each Party shares
        for the Purpose."""),
        h("1. CONFIDENTIAL INFORMATION"),
        p("""Confidential Information is any non-public information disclosed by either Party,
        including financial data, technical information and source code, business plans,
        customer and supplier information, and employee information."""),
        h("2. OBLIGATIONS"),
        p("""Each Party shall keep Confidential Information strictly confidential, use it only
        for the Purpose, not disclose it to third parties without prior written consent, and
        limit access to employees and advisors who need to know it."""),
        h("3. TERM"),
        p("""This NDA lasts three (3) years from October 1, 2024, unless it is replaced earlier
        by the confidentiality provisions of a definitive acquisition agreement."""),
        h("4. EXCLUSIONS"),
        p("""The obligations do not apply to information that is or becomes public through no
        fault of the recipient, was already lawfully known to the recipient, is lawfully
        received from a third party without restriction, or is independently developed."""),
        h("5. RETURN OF MATERIALS"),
        p("""On request or termination, each Party shall return or destroy the other's
        Confidential Information, except copies that must be kept for legal reasons."""),
        h("6. NO LICENSE"),
        p("""This NDA grants no right to any patent, trademark or other intellectual property of
        either Party."""),
        h("SIGNATURES"),
        p("""TechCorp Industries, Inc.: James Mitchell, CEO. StartupXYZ LLC: Sarah Chen, Founder
        and CEO."""),
        h("FILE NOTE - TECHCORP LEGAL, JANUARY 15, 2025"),
        p(f"""Article V of {AGREEMENT} now refers to this NDA. Information exchanged under it
        includes the material summarized in {DILIGENCE}, the patent data certified in
        {IP_LETTER} and the employee data behind {SCH_3}."""),
    ]


def regulatory_approval_letter() -> Body:
    """FTC early-termination letter plus an internal cover note."""
    header = ["Federal Trade Commission - Premerger Notification Office", "January 28, 2025"]
    return header, [
        p("""To: TechCorp Industries, Inc., 500 Technology Drive, San Francisco, CA 94105, and
        StartupXYZ LLC, 123 Innovation Way, Palo Alto, CA 94301."""),
        p("""Re: Early termination of the HSR waiting period. Transaction: acquisition of
        StartupXYZ LLC by TechCorp Industries, Inc. Transaction number 20250412."""),
        p("""The Federal Trade Commission has granted early termination of the waiting period
        under the Hart-Scott-Rodino Antitrust Improvements Act of 1976 for the transaction
        identified above."""),
        h("FILING DETAILS"),
        ul(
            "Filing date: January 10, 2025",
            "Transaction value reported: $45,000,000",
            "HSR filing fee paid: $30,000",
            "Early termination granted: January 28, 2025",
        ),
        p("""The parties may now complete the transaction. Early termination does not prevent
        the Commission from taking any later action it considers necessary to protect
        competition."""),
        h("COVER NOTE - TECHCORP LEGAL DEPARTMENT, JANUARY 29, 2025"),
        p(f"""This letter satisfies the condition in Section 4.1(a) of {AGREEMENT}. The closing
        scheduled for March 1, 2025 can proceed once the remaining items in {CHECKLIST} are
        complete. {RISK} rated this as a low risk, and the market analysis in {DILIGENCE}
        supported the view that the deal raises no competition concerns."""),
    ]


def customer_consent_letters() -> Body:
    """Consent status memo with the consent letters attached."""
    header = [
        "To: Deal Team - From: TechCorp Legal Department",
        "Date: February 15, 2025 - Re: Change-of-control consent status",
    ]
    return header, [
        p(f"""{SCH_2} of {AGREEMENT} lists three customer contracts with change-of-control
        clauses. This memo reports the status of each consent and attaches the letters."""),
        h("CONSENT STATUS"),
        p(
            f"""Contract value: $3.4M per year. Consent received February 10, 2025, following a
        meeting between MegaCorp and TechCorp leadership on February 8, 2025. No conditions
        were attached. This resolves the main concern in Section 1.1 of {RISK}.""",
            "1. MegaCorp Inc. - OBTAINED.",
        ),
        p(
            """Contract value: $1.2M per year. Consent received February 5, 2025 through the
        standard process, with no concerns raised.""",
            "2. DataFlow Systems - OBTAINED.",
        ),
        p(
            f"""Contract value: $890K per year. Consent requested February 1, 2025 and expected
        by February 20, 2025. CloudTech's counsel has reviewed {AGREEMENT} without objection
        and confirmed verbally; the signed letter has not yet arrived.""",
            "3. CloudTech Partners - PENDING.",
        ),
        h("IMPACT"),
        p(f"""{DILIGENCE} identified three contracts needing consent. Two consents are in hand,
        covering $4.6M of annual revenue; one, covering $890K, is pending."""),
        h("CLOSING IMPLICATIONS"),
        p(f"""Article IV of the agreement requires the consents of material customers. With
        MegaCorp's consent obtained, the condition is substantially met; the CloudTech consent
        is expected before the March 1 closing tracked in {CHECKLIST}."""),
        h("EXHIBIT A - MEGACORP CONSENT LETTER"),
        p("""MegaCorp Inc. consents to the change of control of StartupXYZ LLC resulting from
        its acquisition by TechCorp Industries, Inc., and confirms that its services agreement
        continues on its current terms. Dated February 10, 2025. Patricia Gomez, Vice President,
        Procurement, MegaCorp Inc."""),
        h("EXHIBIT B - DATAFLOW SYSTEMS CONSENT LETTER"),
        p("""DataFlow Systems consents to the change of control of StartupXYZ LLC. Dated
        February 5, 2025. Kevin Tran, General Counsel, DataFlow Systems."""),
        h("EXHIBIT C - CLOUDTECH PARTNERS DRAFT CONSENT"),
        p("""Draft consent in agreed form, awaiting signature by CloudTech Partners."""),
    ]


def closing_checklist() -> Body:
    """Closing checklist with DONE/OPEN status for every item."""
    header = [
        "Acquisition of StartupXYZ LLC by TechCorp Industries, Inc.",
        "Closing Date: March 1, 2025 - Location: Wilson & Partners LLP, San Francisco",
        "Status as of February 21, 2025",
    ]
    return header, [
        h("I. PRE-CLOSING CONDITIONS"),
        p("""A. Regulatory"""),
        ul(
            f"HSR filing submitted ({HSR}) - DONE",
            "Early termination received January 28, 2025 - DONE",
            "State regulatory filings - not required, confirmed by counsel - DONE",
        ),
        p(f"""B. Customer consents ({CONSENTS}; see 09_customer_consent_letters.pdf)"""),
        ul(
            "MegaCorp Inc. - DONE (February 10, 2025)",
            "DataFlow Systems - DONE (February 5, 2025)",
            "CloudTech Partners - OPEN; verbal confirmation only, signed letter expected by "
            "February 26, 2025",
        ),
        p("""C. Due diligence"""),
        ul(
            f"Financial due diligence - {DILIGENCE} - DONE",
            f"Legal due diligence - {OPINION} - DONE",
            f"IP due diligence - {IP_LETTER} - DONE",
            f"Risk assessment - {RISK} - DONE",
        ),
        h("II. CLOSING DOCUMENTS"),
        ul(
            f"Executed {AGREEMENT} - DONE (signed January 15, 2025)",
            "Bill of Sale - OPEN",
            "Assignment and Assumption Agreement - OPEN",
            f"IP Assignment Agreement for the patents in {SCH_1} - OPEN",
            "Certificates of good standing for Seller - OPEN (ordered February 18, 2025)",
            "Secretary's certificate with resolutions and incumbency - OPEN",
            f"Closing statement per {ADJUST} (see 05_financial_adjustments_memo.pdf) - OPEN, "
            "draft circulated",
            "Escrow agreement for the $1,300,000 reserve - OPEN",
            f"Stock issuance per {EX_B} - OPEN",
            f"Retention agreements per {SCH_3} - OPEN, 4 of 5 signed",
            "WARN Act notice - not applicable, no layoffs planned",
        ),
        h("III. CLOSING FUNDS"),
        p(f"""Per {ADJUST}:"""),
        ul(
            "Cash payment: $28,330,000",
            "Escrow deposit: $1,300,000",
            "Stock issuance: $10,000,000",
            "Total delivered at closing: $39,630,000",
            f"Earnout of $5,000,000 payable after closing under {EX_C}",
        ),
        h("IV. READINESS"),
        p("""The transaction is not yet ready to close. Five items remain open: the CloudTech
        Partners consent, the good standing certificates, the escrow agreement, the last
        retention agreement and the final closing statement. All are expected to be completed
        before March 1, 2025."""),
    ]


DOCS: tuple[tuple[str, str, Callable[[], Body]], ...] = (
    ("01_acquisition_agreement.pdf", "ACQUISITION AGREEMENT", acquisition_agreement),
    ("02_due_diligence_report.pdf", "DUE DILIGENCE REPORT", due_diligence_report),
    ("03_ip_certification_letter.pdf", "IP CERTIFICATION LETTER", ip_certification_letter),
    ("04_risk_assessment_memo.pdf", "RISK ASSESSMENT MEMO", risk_assessment_memo),
    ("05_financial_adjustments_memo.pdf", "FINANCIAL ADJUSTMENTS MEMO", financial_adjustments_memo),
    ("06_legal_opinion_letter.pdf", "LEGAL OPINION LETTER", legal_opinion_letter),
    ("07_nda.pdf", "MUTUAL NON-DISCLOSURE AGREEMENT", nda),
    ("08_regulatory_approval_letter.pdf", "REGULATORY APPROVAL LETTER", regulatory_approval_letter),
    ("09_customer_consent_letters.pdf", "CUSTOMER CONSENT LETTERS", customer_consent_letters),
    ("10_closing_checklist.pdf", "CLOSING CHECKLIST", closing_checklist),
)
