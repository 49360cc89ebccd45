"""Names and prose for the scale corpus (bench/scale_corpus.py): the pools distractor
documents draw from, and business prose made of seeded sentence templates.

Every document belongs to one company, Orrin Freight Systems, a European freight and
warehousing firm: its contracts, audits, minutes, memos, ledgers, press releases and notes.
The names the planted facts use (`RESERVED`) never come out of these pools, so a distractor
can look like a planted document but never states a planted fact.
"""

from __future__ import annotations

import random

OWNER = "Orrin Freight Systems"
#: Words only the planted documents use; the pools below must not hold any of them.
RESERVED = (
    "Tamarind Veldt Kilbride Marrow Finch Ravenna Ferrara Okafor-Brandt Teodor Lindqvist "
    "Mirela Castellanos Brask Caldera Baltic"
).split()

FIRST = (
    "Amara Bastian Celia Dario Elif Fabian Greta Hamid Ilse Jonas Kaveh Lena Milo Nadia Oskar "
    "Priya Quentin Rosa Soren Tamsin Umar Vera Wendell Yara Zoltan Alba Bruno Chiara Devika "
    "Emil Farah Gideon Hana Ivo Jana Kofi Lucia Mateo Noor Orla Pavel Rina Stellan Tove Ulla "
    "Viktor Wanjiru Xavier Yusuf Zora"
).split()
LAST = (
    "Abbott Brennan Carvalho Dimitrov Eklund Fischer Gallo Haddad Iqbal Janssen Kowalski "
    "Lindahl Moreau Nakamura Oyelaran Petrov Quinlan Rossi Sandoval Takahashi Ueda Vasquez "
    "Whitmore Xu Yilmaz Zeller Achebe Bergstrom Cruz Dalgaard Esposito Falk Gruber Holm Ibsen "
    "Jovanovic Keller Larsen Mendes Novak"
).split()
CODENAMES = (
    "Cardamom Juniper Saffron Nutmeg Clove Fennel Sorrel Quince Medlar Loquat Kumquat Damson "
    "Greengage Persimmon Lychee Rambutan Mangosteen Pomelo Yuzu Bergamot Cassia Galangal "
    "Sumac Anise Caraway Chervil Lovage Tarragon Verbena Wasabi Alder Aspen Birch Hornbeam "
    "Larch Linden Rowan Sycamore Hawthorn Blackthorn Elder Hazel Holly Laurel Myrtle Olive "
    "Spruce Tamarack Cypress Sequoia Acacia Baobab Cedar Ebony Teak Mahogany Sandalwood "
    "Agate Beryl Garnet Jasper Onyx Opal Peridot Quartz Topaz Zircon Basalt Granite Marble "
    "Obsidian Pumice Shale Slate Feldspar Mica Cobalt Nickel Bismuth Indium Osmium Iridium "
    "Rhodium Tungsten Vanadium Gallium Lantern Beacon Compass Sextant Anchor Keel Rudder "
    "Mistral Sirocco Bora Foehn Chinook Zephyr Monsoon Tramontane Levante Pampero"
).split()
DEPOTS = (
    "Bologna Modena Parma Verona Padua Trieste Udine Brescia Bergamo Como Novara Turin Genoa "
    "Livorno Pisa Ancona Pescara Bari Taranto Naples Salerno Graz Linz Salzburg Innsbruck "
    "Villach Ljubljana Maribor Zagreb Rijeka Split Koper Munich Augsburg Nuremberg Regensburg "
    "Passau Lyon Grenoble Dijon Besancon Mulhouse Basel Lucerne Lugano Zurich Winterthur "
    "Chur Bolzano Trento Mantua Cremona Piacenza Lodi Pavia Asti Cuneo Savona Imola Faenza"
).split()
INDUSTRY = (
    "Ceramics Polymers Metalworks Composites Plastics Packaging Textiles Electronics Coatings "
    "Castings Glassworks Fasteners Cables Refrigeration Hydraulics"
).split()
MAKERS = (
    "Arlo Brisk Corvin Dunmore Eberle Falkner Grau Harlow Imber Jessop Korda Lomax Merrill "
    "Norcott Ostrava Pellham Quarry Rendel Stroud Thorne Ulmer Varga Weston Yeardley Zemke "
    "Alstrom Benning Carrow Dorsey Engel"
).split()
STREETS = (
    "Harbour Mill Quay Station Canal Foundry Granary Tannery Ropewalk Wharf Brewery Furnace "
    "Marsh Weaver Chapel Bridge Dock Forge Kiln Saltmarket Ironworks Cotton Cooper Mason "
    "Thistle Heather Orchard Meadow Beacon Signal Rail Freight Basin Lock Ferry"
).split()
CITIES = (
    "Dundee Aberdeen Leeds Hull Bristol Cardiff Leicester Derby Preston Bolton Stockport "
    "Wigan Swindon Reading Luton Coventry Norwich Exeter Plymouth Carlisle"
).split()
INSURERS = (
    "Aldermoor Assurance|Brightwater Insurance|Corbel Re|Dunstan General|Everholt Mutual|"
    "Fairhaven Underwriters|Greystone Insurance|Halberd Specialty|Ironvale Assurance|"
    "Juniper Lane Insurance|Keystone Marine|Lodestar Casualty"
).split("|")
COVERAGE = (
    "property damage|fleet motor|cyber liability|public liability|employers' liability|"
    "business interruption|directors and officers|warehouse legal liability|goods in transit "
    "for hazardous materials|environmental impairment"
).split("|")
REGIONS = "Adriatic Alpine Iberian Nordic Danube Rhine Atlantic Tyrrhenian Aegean Carpathian"
REGIONS_LIST = REGIONS.split()
CATEGORIES = ("Travel", "Consulting", "Equipment", "Software", "Training", "Freight", "Facilities")
DESKS = ("Facilities", "Payroll", "Fleet", "Procurement", "Security", "Customs", "Travel")
MONTHS = (
    "January February March April May June July August September October November December"
).split()


def person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def company(rng: random.Random, industry: str | None = None) -> str:
    return f"{rng.choice(MAKERS)} {industry or rng.choice(INDUSTRY)}"


def date(rng: random.Random, years: tuple[int, int] = (2019, 2025)) -> str:
    return f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {rng.randint(*years)}"


def money(rng: random.Random, low: int, high: int, step: int = 250) -> str:
    return f"${rng.randrange(low, high, step):,}"


_SENTENCES = (
    "Throughput at the {depot} depot reached {n:,} pallets in {month}, {pct}% {updown} plan.",
    "{person} will circulate the revised {thing} schedule to the site leads by {date}.",
    "The {depot} team reported {small} safety near-misses this quarter, all of them in the "
    "loading bays, and none led to lost time.",
    "Carrier rates on the {depot}-{depot2} lane rose {pct}% after the autumn tender.",
    "Project {code} remains on track; the next checkpoint is scheduled for {date}.",
    "A second forklift charging bay at {depot} was commissioned for {amount}.",
    "{person} asked that the {thing} figures be restated in euros before the board pack closes.",
    "Dock door utilisation at {depot} averaged {pct}% over the last {small} weeks.",
    "The customs broker for the {depot} gateway changed to {company} in {month}.",
    "Overtime at the {depot} depot fell to {small}% of hours worked after the new shift pattern.",
    "{company} delivered the {thing} upgrade {small} days late and credited {amount}.",
    "Stock accuracy in the {depot} cycle counts was {pct}.{small}% against a target of 99.5%.",
    "The steering group asked {person} to compare the {thing} options before {date}.",
    "Cold-chain excursions on the {depot} routes dropped to {small} in {month}.",
    "The lease break option for the {depot} cross-dock was reviewed and not exercised.",
    "Driver retention at {depot} improved after the {thing} bonus was introduced in {month}.",
    "{person} presented the {thing} business case; the committee asked for a sensitivity on "
    "fuel prices.",
    "Claims for damaged freight out of {depot} totalled {amount} in the period.",
    "The telematics rollout now covers {n:,} trailers across the {region} network.",
    "An energy audit of the {depot} building recommended LED lighting and roof insulation.",
    "Invoice disputes with {company} were settled at {amount} on {date}.",
    "The {thing} pilot at {depot} will run for {small} more weeks before a decision.",
    "Empty running on the {region} routes was {pct}% in {month}, down from the prior quarter.",
    "{person} owns the action to renew the racking inspection certificates at {depot}.",
)
_THINGS = (
    "yard management",
    "route planning",
    "pallet pooling",
    "returns handling",
    "fuel card",
    "slotting",
    "cross-docking",
    "cycle counting",
    "dock scheduling",
    "label printing",
    "night shift",
    "EV charging",
)


def sentence(rng: random.Random) -> str:
    """One business sentence about the company's operations."""
    template = rng.choice(_SENTENCES)
    depot, depot2 = rng.sample(DEPOTS, 2)
    return template.format(
        depot=depot,
        depot2=depot2,
        n=rng.randrange(1_000, 90_000, 10),
        month=rng.choice(MONTHS),
        pct=rng.randint(2, 97),
        updown=rng.choice(("above", "below")),
        person=person(rng),
        thing=rng.choice(_THINGS),
        date=date(rng, (2021, 2025)),
        small=rng.randint(2, 19),
        code=rng.choice(CODENAMES),
        amount=money(rng, 2_000, 400_000),
        company=company(rng),
        region=rng.choice(REGIONS_LIST),
    )


def paragraph(rng: random.Random, sentences: tuple[int, int] = (3, 6)) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(*sentences)))


def _check_pools() -> None:
    """Guard: no pool holds a reserved (planted) word."""
    pools = [FIRST, LAST, CODENAMES, DEPOTS, INDUSTRY, MAKERS, STREETS, CITIES, REGIONS_LIST]
    words = {w for pool in pools for w in pool} | {w for i in INSURERS for w in i.split()}
    clash = words & set(RESERVED)
    if clash:
        raise ValueError(f"reserved words in the pools: {sorted(clash)}")


_check_pools()
