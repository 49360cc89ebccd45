"""Varied, document-specific general provisions used to pad PDFs to their page count.

Every paragraph is built from a per-document context (its name, subject matter, counterparties
and related documents) and a seeded choice among several phrasings, so no two documents share
identical filler paragraphs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .pdf import Block, h, p

# Each family: (heading, [template, ...]). Placeholders: {noun} {title} {topic} {topic2}
# {party} {other} {ref} {days} {date} {city}.
AGREEMENT_FAMILIES: list[tuple[str, list[str]]] = [
    (
        "Notices",
        [
            "Any notice under this {noun} concerning {topic} must be in writing and is effective "
            "on personal delivery, on the first business day after dispatch by overnight courier, "
            "or on transmission by email with a confirming copy sent within {days} days. Notices "
            "to {party} go to its general counsel; notices to {other} go to the address on its "
            "signature page.",
            "Communications about {topic} shall be given in writing to the addresses set out in "
            "{ref}, unless a party designates a different address by notice. A notice sent after "
            "5:00 p.m. local time at the recipient's location is treated as received on the next "
            "business day.",
            "Each party shall keep a named contact for {topic}. Formal notices under this {noun} "
            "require a signed writing; routine operational messages about {topic2} may be "
            "exchanged by email between those contacts and do not amend this {noun}.",
        ],
    ),
    (
        "Severability",
        [
            "If a court of competent jurisdiction holds any provision of this {noun} invalid, the "
            "remaining provisions stay in force, and the affected provision is reformed to the "
            "minimum extent needed to make it enforceable while preserving the parties' intent "
            "regarding {topic}.",
            "Invalidity of one clause of this {noun} does not affect the others. The parties shall "
            "negotiate in good faith a valid substitute provision that comes as close as possible "
            "to the economic effect of the original clause on {topic}.",
            "Should any term dealing with {topic2} prove unenforceable in a particular "
            "jurisdiction, that term is ineffective only in that jurisdiction and only to the "
            "extent of the unenforceability, without invalidating the rest of this {noun}.",
        ],
    ),
    (
        "Counterparts and Electronic Signature",
        [
            "This {noun} may be executed in counterparts, each of which is an original and all of "
            "which together form one instrument. Signatures delivered as PDF files or through an "
            "electronic signature platform bind the signing party as fully as ink originals.",
            "The parties may sign this {noun} in any number of counterparts. Delivery of an "
            "executed signature page by email is effective delivery, and neither party will "
            "contest enforceability on the ground that a signature was electronic.",
            "Execution of this {noun} through DocuSign or a comparable service is valid. The "
            "counterpart pages, once assembled by {party}'s counsel, constitute a single agreement "
            "concerning {topic}.",
        ],
    ),
    (
        "Further Assurances",
        [
            "Each party shall, at the reasonable request of the other and without further "
            "consideration, sign such additional instruments and take such further steps as are "
            "reasonably necessary to give full effect to the provisions of this {noun} on {topic}.",
            "After the date of this {noun}, {party} and {other} shall cooperate to deliver any "
            "confirmations, filings or registrations reasonably required to perfect the "
            "arrangements for {topic2}, each bearing its own internal costs.",
            "If any further action is needed to carry out the purposes of this {noun}, the "
            "responsible officers of each party shall take it within {days} days of a written "
            "request, including executing documents needed to evidence {topic}.",
        ],
    ),
    (
        "Amendment and Waiver",
        [
            "This {noun} may be amended only by a written instrument signed by authorized officers "
            "of {party} and {other}. No failure or delay in exercising a right concerning {topic} "
            "operates as a waiver of that right.",
            "A waiver is effective only if in writing and only for the specific instance given. A "
            "course of dealing regarding {topic2} does not modify this {noun}.",
            "Changes to the provisions on {topic} require a signed amendment that expressly refers "
            "to this {noun}; email exchanges, meeting minutes and purchase orders do not amend it.",
        ],
    ),
    (
        "Assignment",
        [
            "Neither party may assign this {noun} without the prior written consent of the other, "
            "except that {party} may assign its rights to an affiliate or to a successor to "
            "substantially all of the business to which {topic} relates.",
            "This {noun} binds and benefits the parties and their permitted successors and "
            "assigns. Any purported transfer of rights concerning {topic} in breach of this "
            "section is void.",
            "{other} may not delegate its obligations regarding {topic2} to a subcontractor "
            "without notice to {party}, and remains responsible for any permitted delegate's "
            "performance.",
        ],
    ),
    (
        "Governing Law and Forum",
        [
            "This {noun} is governed by the laws of the State of Delaware, without regard to its "
            "conflict-of-laws rules. Disputes about {topic} that cannot be resolved by the "
            "parties' senior executives within {days} days are subject to the forum provisions of "
            "{ref}.",
            "Delaware law governs the interpretation of this {noun}. The parties submit to the "
            "exclusive jurisdiction of the state and federal courts located in Wilmington, "
            "Delaware, and waive trial by jury in any proceeding arising from it.",
            "All questions concerning the construction of this {noun} are decided under Delaware "
            "law. Before commencing litigation over {topic2}, a party must first give written "
            "notice describing the dispute and allow {days} days for negotiation.",
        ],
    ),
    (
        "Specific Performance",
        [
            "The parties agree that money damages would be an inadequate remedy for a breach of "
            "the provisions on {topic}, and that the non-breaching party may seek an injunction or "
            "specific performance without posting a bond, in addition to any other remedy.",
            "Because the obligations in this {noun} concerning {topic2} are unique, each party "
            "consents to equitable relief to prevent threatened breaches.",
            "Irreparable harm would result from non-performance of this {noun}. Accordingly, a "
            "court may order performance of the covenants about {topic} in addition to awarding "
            "damages.",
        ],
    ),
    (
        "Costs and Expenses",
        [
            "Except as otherwise stated in {ref}, each party bears its own legal, accounting and "
            "advisory fees incurred in negotiating and performing this {noun}.",
            "Costs of performing the obligations on {topic} are borne by the party performing "
            "them, unless a different allocation is set out in this {noun}.",
            "Out-of-pocket expenses related to {topic2} above $10,000 in any month require the "
            "prior written approval of {party}; approved expenses are reimbursed within {days} "
            "days of receipt of an itemized invoice.",
        ],
    ),
    (
        "Interpretation",
        [
            "Headings in this {noun} are for convenience only. The words 'including' and "
            "'includes' mean 'including without limitation'. References to a Document by title, "
            "such as {ref}, are to that document as executed in connection with the Acquisition.",
            "This {noun} was drafted jointly, and no presumption against the drafting party "
            "applies. Capitalized terms used but not defined here have the meanings given in "
            "{ref}.",
            "Singular terms include the plural and vice versa. A reference to a statute includes "
            "its rules and regulations as amended. Dollar amounts are in United States dollars.",
        ],
    ),
    (
        "Entire Agreement and Precedence",
        [
            "This {noun}, together with {ref} and the other transaction documents, is the entire "
            "agreement of the parties about {topic} and supersedes prior discussions. If this "
            "{noun} conflicts with the Master Acquisition Agreement, the Master Acquisition "
            "Agreement controls.",
            "Prior term sheets and correspondence about {topic2} are superseded. In case of "
            "inconsistency, the order of precedence is: the Master Acquisition Agreement, then "
            "this {noun}, then any schedule or exhibit to this {noun}.",
            "No statement outside this {noun} and the documents it references has effect as to "
            "{topic}. The parties confirm they did not rely on any representation not set out in "
            "writing.",
        ],
    ),
    (
        "Survival",
        [
            "The provisions of this {noun} on {topic} survive the Closing for the period stated in "
            "{ref}; other covenants survive until fully performed.",
            "Rights and obligations under this {noun} that by their nature should continue, "
            "including those on {topic2}, survive its expiry or termination.",
            "Claims under this {noun} concerning {topic} must be notified before the end of the "
            "applicable survival period; a timely notified claim survives until finally resolved.",
        ],
    ),
    (
        "Confidential Treatment",
        [
            "The terms of this {noun}, including those on {topic}, are Confidential Information "
            "and may be disclosed only to advisors, financing sources and regulators who need to "
            "know them, as permitted by the Non-Disclosure Agreement.",
            "Neither party shall issue a press release mentioning {topic2} without the other's "
            "approval, except disclosures required by securities laws or stock exchange rules.",
            "{party} may disclose this {noun} to its auditors and insurers under customary "
            "confidentiality obligations. Any other disclosure needs the written consent of "
            "{other}.",
        ],
    ),
    (
        "No Third-Party Beneficiaries",
        [
            "This {noun} is for the sole benefit of the parties and their permitted assigns. "
            "Nothing in it gives any other person, including employees or customers affected by "
            "{topic}, any legal or equitable right.",
            "Except for indemnified persons expressly named in {ref}, no third party may enforce "
            "any term of this {noun}.",
            "Persons other than {party} and {other} acquire no rights under this {noun}, whether "
            "relating to {topic2} or otherwise.",
        ],
    ),
    (
        "Records and Inspection",
        [
            "Each party shall keep accurate records of its performance regarding {topic} for at "
            "least six years and make them available for inspection on {days} business days' "
            "notice during normal working hours.",
            "{other} shall retain supporting documentation for amounts charged under this {noun} "
            "and permit {party}'s internal audit team to review it once per calendar year.",
            "Records relating to {topic2} shall be stored in a secure repository with access "
            "logging; copies may be requested by either party on reasonable notice.",
        ],
    ),
]

DISCLOSURE_FAMILIES: list[tuple[str, list[str]]] = [
    (
        "Basis of Preparation",
        [
            "This {noun} was prepared by {party} from its books, records and management interviews "
            "as of {date}. Information about {topic} reflects the latest data available to the "
            "preparers on that date.",
            "The information in this {noun} on {topic2} was compiled by finance and legal staff of "
            "{party} and reviewed by its outside counsel before delivery to {other}.",
            "Figures concerning {topic} were extracted from the general ledger and supporting "
            "systems and reconciled to the records referenced in {ref}.",
        ],
    ),
    (
        "Cross-References",
        [
            "Disclosure in any section of this {noun} is deemed made for each other section to "
            "which its relevance is reasonably apparent on its face, including the disclosures in "
            "{ref}.",
            "Where this {noun} refers to {ref}, the referenced material is incorporated as if set "
            "out in full. Section numbers correspond to the numbering of the Master Acquisition "
            "Agreement.",
            "Readers should consult {ref} alongside this {noun}; matters concerning {topic2} are "
            "described in both places and the two descriptions are intended to be consistent.",
        ],
    ),
    (
        "No Admission",
        [
            "Inclusion of an item in this {noun} is not an admission that the item is material, "
            "outside the ordinary course, or that any liability exists regarding {topic}.",
            "Nothing in this {noun} is an admission of liability to any third party, including any "
            "claimant or counterparty connected with {topic2}.",
            "Disclosure of a matter concerning {topic} does not establish a standard of "
            "materiality for any other purpose.",
        ],
    ),
    (
        "Updates and Supplements",
        [
            "{party} shall supplement this {noun} promptly if it becomes aware before the Closing "
            "of any development relating to {topic}. A supplement does not cure a breach unless "
            "{other} agrees in writing.",
            "This {noun} speaks as of {date}. Any later update about {topic2} will be delivered as "
            "a numbered supplement and listed in the closing set.",
            "Changes to the information in this {noun} after {date} are tracked in a supplement "
            "log maintained by counsel for {party} and shared with {other} every {days} days.",
        ],
    ),
    (
        "Materiality Thresholds",
        [
            "Unless otherwise stated, items concerning {topic} are listed if they involve more "
            "than $100,000 per year or could reasonably be expected to affect the business after "
            "Closing.",
            "Matters below $25,000 are generally omitted from this {noun} unless they relate to "
            "{topic2}, where all known items are listed regardless of amount.",
            "The thresholds applied in this {noun} follow those in {ref}; smaller items relating "
            "to {topic} are available in the data room on request.",
        ],
    ),
    (
        "Sources and Data Room",
        [
            "Copies of each document summarized in this {noun} were posted to the virtual data "
            "room before {date}. Index numbers for items on {topic} appear in the data room log.",
            "Source documents for {topic2} are held in folder {days} of the data room; {other} and "
            "its advisors received access credentials on request.",
            "Summaries in this {noun} do not replace the underlying documents about {topic}, which "
            "control if a summary is incomplete.",
        ],
    ),
    (
        "Headings and Numbering",
        [
            "Headings and numbering in this {noun} are for reference only and do not change the "
            "meaning of any disclosure about {topic}.",
            "Section headings mirror the Master Acquisition Agreement. Sub-numbering used for "
            "{topic2} is for convenience and has no separate legal effect.",
            "Where an item could fall under more than one heading, it appears once under the "
            "heading most closely related to {topic}.",
        ],
    ),
    (
        "Limitations",
        [
            "This {noun} does not address tax consequences, which are covered separately. "
            "Statements about {topic} are limited to matters known to the persons listed as "
            "knowledge parties.",
            "Forward-looking statements in this {noun} about {topic2} are estimates only and are "
            "not representations regarding future results.",
            "Matters of law relating to {topic} are addressed here only to the extent expressly "
            "stated; related analysis appears in {ref}.",
        ],
    ),
    (
        "Reliance",
        [
            "{other} may rely on this {noun} for purposes of the Acquisition only. No other person "
            "may rely on the statements about {topic} without written consent of {party}.",
            "This {noun} is delivered to {other} and its lenders. Reliance by any other party on "
            "statements about {topic2} is not authorized.",
            "The preparers consent to this {noun} being shared with {other}'s auditors and "
            "insurers, who may rely on it as to {topic} to the same extent as {other}.",
        ],
    ),
    (
        "Currency and Figures",
        [
            "All amounts in this {noun} are in United States dollars and, unless otherwise noted, "
            "are unaudited management figures. Totals may not add due to rounding.",
            "Percentages relating to {topic} are calculated on fiscal year 2024 figures unless "
            "another period is stated.",
            "Figures regarding {topic2} are rounded to the nearest thousand dollars; exact amounts "
            "appear in the supporting files.",
        ],
    ),
    (
        "Retention of Records",
        [
            "Working papers supporting the statements on {topic} in this {noun} are retained by "
            "{party} for seven years and may be inspected by {other} on {days} business days' "
            "notice.",
            "Drafts and correspondence relating to {topic} are preserved under the litigation hold "
            "procedures described in {ref}.",
            "Records relating to {topic2} will transfer to {other} at the Closing together with "
            "the rest of the company's books and records.",
        ],
    ),
    (
        "Confidentiality of this Document",
        [
            "This {noun} contains Confidential Information regarding {topic} and is subject to the "
            "Non-Disclosure Agreement between the parties.",
            "Distribution of this {noun} is limited to the deal teams, counsel and auditors of the "
            "parties. Information on {topic2} may not be used for any other purpose.",
            "Recipients shall not copy the portions of this {noun} concerning {topic} except as "
            "needed to evaluate and complete the Acquisition.",
        ],
    ),
]

_CITIES = ("San Jose, California", "Austin, Texas", "Wilmington, Delaware")


@dataclass(frozen=True)
class FillerContext:
    """What filler paragraphs may talk about for one document."""

    key: str
    noun: str
    topics: tuple[str, ...]
    refs: tuple[str, ...]
    party: str = "InnovateTech Solutions, Inc."
    other: str = "GlobalTech Corporation"
    date: str = "February 15, 2025"
    disclosure: bool = False


def filler_sections(ctx: FillerContext) -> Iterator[list[Block]]:
    """Yield heading+paragraph sections drawn in a document-specific order and phrasing."""
    rng = random.Random(ctx.key)
    families = list(DISCLOSURE_FAMILIES if ctx.disclosure else AGREEMENT_FAMILIES)
    rng.shuffle(families)
    for index, (name, variants) in enumerate(families):
        chosen = rng.sample(variants, k=2)
        blocks: list[Block] = [h(name)]
        for offset, template in enumerate(chosen):
            values = {
                "noun": ctx.noun,
                "topic": ctx.topics[(index + offset) % len(ctx.topics)],
                "topic2": ctx.topics[(index + offset + 1) % len(ctx.topics)],
                "ref": ctx.refs[(index + offset) % len(ctx.refs)],
                "party": ctx.party,
                "other": ctx.other,
                "date": ctx.date,
                "days": rng.choice((5, 10, 15, 20, 30)),
                "city": rng.choice(_CITIES),
            }
            text = template.format(**values)
            blocks.append(p(text[0].upper() + text[1:]))
        yield blocks
