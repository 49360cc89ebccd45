"""data/personal, the paperwork: the lease, the building's service contracts and an
amendment, the insurance declarations; and the paths of every named file."""

from __future__ import annotations

from .pdf import h, p
from .personal_money import BUILDING, CITY, ELEVATOR_FEE, HOME, NEW_ELEVATOR_FEE, OWNER, money
from .personal_pdf import Doc, grid

LEASE = "Contracts/Lease_1120_Harbor_View_Apt_4B_2024-2025.pdf"
ELEVATOR = "Contracts/87_Maple_St/Elevator_Maintenance_Agreement_Apex_2023.pdf"
AMENDMENT = "Contracts/87_Maple_St/Elevator_Agreement_Amendment_No1.pdf"
BOILER = "Contracts/87_Maple_St/Boiler_Service_Agreement_Keller_2024.docx"
RENTERS = "Insurance/Renters_Policy_Declarations_2024-2025.pdf"
LANDLORD = "Insurance/Landlord_Policy_87_Maple_St_2024-2025.pdf"
MANUAL = "Downloads/Corvin_LP-220_User_Guide.pdf"
BROCHURE = "Downloads/Riverfront_Arts_Festival_2024.pdf"
MEDICATIONS = "Medical/medications.md"
IMMUNIZATIONS = "Medical/immunization_record.txt"
TAX_NOTES = "Taxes/2024/Tax_Prep_Notes_2024.md"
ESTIMATED = "Taxes/2024/Estimated_Tax_Payments_2024.xlsx"
EXPORT = "Downloads/lakeshore_checking_export_2024-07_to_2024-09.csv"
COPY = "Downloads/Lakeshore_CU_Checking_2024-03 (1).pdf"

RENT, DEPOSIT, PARKING, LATE_FEE = 215_000, 322_500, 9_500, 7_500
ELEVATOR_CO = "Apex Vertical Transport Services, Inc."
BOILER_CO = "Keller Mechanical & Boiler Co."
BOILER_YEAR, BOILER_MONTH = 144_000, 12_000


def lease() -> Doc:
    return Doc(
        LEASE,
        "Residential Lease Agreement",
        ["Harbor View Residences LLC", f"1120 Harbor View Drive, {CITY}", "Lease No. HVR-4B-2024"],
        [
            p(
                f"This Residential Lease Agreement is made on August 12, 2024 between Harbor View "
                f'Residences LLC ("Landlord") and {OWNER} ("Tenant").',
                "1. Parties.",
            ),
            p(
                f"Apartment 4B at 1120 Harbor View Drive, {CITY}, a two-bedroom apartment on the "
                "fourth floor, with one storage locker in the basement.",
                "2. Premises.",
            ),
            p(
                "The term of this lease is twelve (12) months, beginning September 1, 2024 and "
                "ending August 31, 2025. This lease renews the tenancy that began on September "
                "1, 2022.",
                "3. Term.",
            ),
            p(
                f"Tenant shall pay monthly rent of {money(RENT)}, due on the first day of each "
                f"month. A late fee of {money(LATE_FEE)} is charged on rent received after the "
                "fifth day of the month.",
                "4. Rent.",
            ),
            p(
                f"Parking space 14 in the garage is rented for {money(PARKING)} per month, billed "
                "together with the rent.",
                "5. Parking.",
            ),
            p(
                f"Tenant has paid a security deposit of {money(DEPOSIT)}. Landlord returns it "
                "within 30 days after the tenancy ends, less lawful deductions itemized in "
                "writing.",
                "6. Security deposit.",
            ),
            p(
                "Landlord pays water, sewer and trash collection. Tenant pays electricity, gas and "
                "internet service.",
                "7. Utilities.",
            ),
            p("One cat is permitted with a pet deposit of $300.00.", "8. Pets."),
            p(
                "Either party may end the tenancy at the end of the term with 60 days' written "
                "notice; otherwise the tenancy continues month to month at the then-current "
                "rent.",
                "9. Notice.",
            ),
            p(
                "Tenant reports repairs through the resident portal. Landlord responds to "
                "emergency repairs within 24 hours and to other repairs within 7 days.",
                "10. Repairs.",
            ),
            h("SIGNATURES"),
            p(
                "Landlord: Harbor View Residences LLC, by Renee Okafor, Property Manager. "
                f"Tenant: {OWNER}."
            ),
        ],
        footer="Harbor View Residences LLC - Lease No. HVR-4B-2024",
    )


def elevator() -> Doc:
    return Doc(
        ELEVATOR,
        "Elevator Maintenance Agreement",
        ["Agreement No. AVT-2023-0187", "Effective February 1, 2023"],
        [
            p(
                f"This Elevator Maintenance Agreement is entered into between {OWNER}, owner of "
                f'the building at {BUILDING}, {CITY} ("Owner"), and {ELEVATOR_CO}, 1900 '
                f'Industrial Parkway, {CITY} ("Contractor").',
                "1. Parties.",
            ),
            p(
                "One hydraulic passenger elevator, state ID 43-EL-20917, serving four stops, "
                "installed in 1998.",
                "2. Equipment.",
            ),
            p(
                "Contractor performs a preventive maintenance visit every month: cleaning, "
                "lubrication and adjustment of the machine, controller, door equipment and "
                "hydraulic system; the annual no-load safety test; and coordination of the state "
                "inspection.",
                "3. Services.",
            ),
            p(
                f"Owner shall pay Contractor a monthly maintenance fee of {money(ELEVATOR_FEE)}, "
                "invoiced on the first day of each month and paid by bank draft.",
                "4. Fee.",
            ),
            p(
                "Contractor responds to service calls within 4 hours during regular working "
                "hours, Monday to Friday from 7:00 a.m. to 4:00 p.m. Calls outside those hours "
                "are billed at $165.00 per hour.",
                "5. Callbacks.",
            ),
            p(
                "The agreement runs for 36 months, from February 1, 2023 through January 31, "
                "2026, and renews for one-year periods unless either party gives 90 days' "
                "written notice.",
                "6. Term.",
            ),
            p(
                "Repairs made necessary by vandalism or misuse, cab finishes and the replacement "
                "of hoistway doors are not covered.",
                "7. Exclusions.",
            ),
            h("SIGNATURES"),
            p(f"Owner: {OWNER}. Contractor: Dale Whitcomb, Service Manager, {ELEVATOR_CO}"),
        ],
        footer="Apex Vertical Transport Services - Agreement AVT-2023-0187",
    )


def amendment() -> Doc:
    return Doc(
        AMENDMENT,
        "Amendment No. 1 to Elevator Maintenance Agreement AVT-2023-0187",
        ["Effective January 1, 2025", f"Building: {BUILDING}, {CITY}"],
        [
            p(
                "This Amendment No. 1 amends the Elevator Maintenance Agreement dated February 1, "
                f'2023 between {OWNER} ("Owner") and {ELEVATOR_CO} ("Contractor").'
            ),
            p(
                f"Effective January 1, 2025, the monthly maintenance fee is increased from "
                f"{money(ELEVATOR_FEE)} to {money(NEW_ELEVATOR_FEE)}.",
                "1. Monthly fee.",
            ),
            p(
                "Emergency callbacks at any hour are included in the monthly fee, and Contractor "
                "will respond to an entrapment within 2 hours, 24 hours a day.",
                "2. Emergency callbacks.",
            ),
            p("All other terms of the agreement remain unchanged.", "3. Other terms."),
            h("SIGNATURES"),
            p(
                f"Signed December 4, 2024. Owner: {OWNER}. Contractor: Dale Whitcomb, Service "
                "Manager."
            ),
        ],
        footer="Apex Vertical Transport Services - Amendment No. 1",
    )


BOILER_PARAS = (
    (
        "Parties",
        f"This Boiler Service Agreement is made between {OWNER}, owner of {BUILDING}, {CITY} "
        f'("Owner"), and {BOILER_CO}, 312 Foundry Street, {CITY} ("Keller").',
    ),
    (
        "Equipment",
        "One gas-fired cast-iron hot water boiler with its circulator pumps, expansion tank and "
        "controls, in the basement mechanical room.",
    ),
    (
        "Term and price",
        "The agreement runs from October 1, 2024 to September 30, 2025. The annual contract "
        f"price is {money(BOILER_YEAR)}, billed monthly at {money(BOILER_MONTH)}.",
    ),
    (
        "Emergency service",
        "Keller answers no-heat calls 24 hours a day. Emergency labor is billed at $140.00 per "
        "hour; parts are discounted 10% from list price.",
    ),
)
BOILER_VISITS = (
    ("Visit", "Month", "Work"),
    ("1", "October 2024", "Start-up, combustion analysis, safety controls test"),
    ("2", "January 2025", "Mid-season inspection, pressure and pump check"),
    ("3", "September 2025", "Annual cleaning of the heat exchanger and flue"),
)


def renters() -> Doc:
    return Doc(
        RENTERS,
        "Northstar Mutual Insurance Company - Renters Policy Declarations",
        ["Policy number HO4-5521-0876", "Policy period: September 1, 2024 to September 1, 2025"],
        [
            grid(
                ("Named insured", OWNER),
                ("Insured location", f"{HOME}, {CITY}"),
                ("Agent", "Carla Benning, Benning Insurance Agency"),
                header=False,
            ),
            h("Coverages"),
            grid(
                ("Coverage", "Limit"),
                ("C - Personal property", "$30,000"),
                ("D - Loss of use", "$9,000"),
                ("E - Personal liability", "$300,000"),
                ("F - Medical payments to others", "$1,000"),
            ),
            grid(
                ("Deductible (all perils)", "$500"),
                ("Annual premium", "$186.00"),
                header=False,
            ),
            p("Endorsements: replacement cost on personal property; identity fraud expense."),
        ],
        footer="Northstar Mutual Insurance Company - HO4-5521-0876",
    )


def landlord() -> Doc:
    return Doc(
        LANDLORD,
        "Keystone Property & Casualty - Dwelling Policy Declarations (DP-3)",
        ["Policy number DP3-77-410982", "Policy period: April 1, 2024 to April 1, 2025"],
        [
            grid(
                ("Named insured", OWNER),
                ("Mailing address", f"{HOME}, {CITY}"),
                ("Insured location", f"{BUILDING}, {CITY} - six residential units"),
                header=False,
            ),
            h("Coverages"),
            grid(
                ("Coverage", "Limit"),
                ("A - Dwelling", "$1,150,000"),
                ("D - Fair rental value", "$72,000"),
                ("L - Premises liability", "$1,000,000"),
            ),
            grid(
                ("Deductible", "$2,500"),
                ("Annual premium", "$3,940.00"),
                header=False,
            ),
            p(
                "The elevator and boiler must be kept under service contracts and inspected as "
                "the state requires; inspection certificates are to be provided on request."
            ),
        ],
        footer="Keystone Property & Casualty - DP3-77-410982",
    )
