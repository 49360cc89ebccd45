"""The Safety folder of data/contractor: the written safety program and notes of two Monday
toolbox talks (one in Markdown, one in plain text)."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r

PROGRAM = "Safety/Safety_Program_2025.docx"
TRENCHING = "Safety/Toolbox_Talks/2025-05-05_trenching_and_excavation.md"
HEAT = "Safety/Toolbox_Talks/2025-06-02_heat_illness.txt"

_PROGRAM = [
    (
        "p",
        "Adopted by Dan Halvorsen, President, January 6, 2025. Every employee reads this "
        "program when hired and signs the acknowledgment kept in the personnel file.",
    ),
    ("h", "1. Responsibilities"),
    (
        "p",
        "Luis Ferreira is the company safety coordinator. Each job has a site lead who runs "
        "the daily walk-around, keeps the first-aid kit stocked and stops work that is not "
        "safe. Every employee may stop work that he or she believes is dangerous, without "
        "penalty.",
    ),
    ("h", "2. Toolbox talks"),
    (
        "p",
        "A 15-minute toolbox talk is held every Monday at 7:00 a.m. at the main job site. "
        "The leader writes short notes with the attendance and files them in "
        "Safety/Toolbox_Talks.",
    ),
    ("h", "3. Personal protective equipment"),
    (
        "b",
        [
            "Hard hats when anyone works overhead or a machine is operating.",
            "Safety glasses for all cutting, grinding, nailing and demolition.",
            "Hearing protection for saws, breakers and compactors.",
            "N95 respirators, or better, for dry cutting of concrete, tile or fiber-cement.",
        ],
    ),
    ("h", "4. Fall protection and ladders"),
    (
        "p",
        "Guardrails or personal fall arrest are required at 6 feet or more above a lower "
        "level. Ladders extend 3 feet above the landing and are tied off; no one stands on "
        "the top two rungs of a stepladder.",
    ),
    ("h", "5. Trenching and excavation"),
    (
        "p",
        "Trenches 5 feet deep or more need a protective system (sloping, shoring or a "
        "trench box) chosen by the competent person. Dig Safe is called at least 72 hours "
        "(excluding weekends and holidays) before any digging.",
    ),
    ("h", "6. Reporting injuries"),
    (
        "p",
        "Report every injury, however minor, to the site lead at once and to the office the "
        "same day. The office files the written incident report within 24 hours and the "
        "workers' compensation first report when needed.",
    ),
    ("h", "7. Vehicles and equipment"),
    (
        "p",
        "Only trained employees operate rented equipment. Walk around every machine before "
        "starting it and keep a spotter when backing in tight sites.",
    ),
]


def write(out: Path, texts: dict[str, str]) -> None:
    texts[PROGRAM] = r.docx(
        out / PROGRAM,
        "Ridgeline Builders LLC - Safety Program 2025",
        _PROGRAM,
        author="Luis Ferreira",
    )
    texts[TRENCHING] = r.text(
        out / TRENCHING,
        """\
# Toolbox talk - Trenching and excavation

**Date:** Monday, May 5, 2025, 7:00 a.m.
**Where:** Pelletier job, 14 Birch Hollow Road
**Led by:** Luis Ferreira
**Attendance:** Kenji Watanabe, Tom Brennan, Grace Lindholm, Cody Marsh, plus two from
Clearwater Plumbing (they dig the new drain line to the addition this week)

## Why today
Clearwater's trench for the addition drain will be about 4 feet deep, close to the line where
the rules change. Last month's footing dig turned up ledge and loose fill along the north side.

## What we covered
- Any trench 5 feet deep or more needs a protective system - sloping, shoring or a trench
  box. Below that, the competent person still decides if the walls are stable.
- Competent person on this job: Kenji. He inspects the trench every morning and after rain.
- Keep the spoil pile and the machine at least 2 feet back from the edge.
- Trenches 4 feet or deeper need a ladder within 25 feet of travel.
- Dig Safe ticket 20251804417 is good until May 16. Flags are out for the gas service.
- Nobody works in the trench while the excavator is digging in it.

## Questions raised
- Cody asked whether the 5-foot rule is measured from the high side. Answer: from the
  lowest point of the ground at the edge, so measure on the low side.

Next talk: June 2 - heat illness (Kenji).
""",
    )
    texts[HEAT] = r.text(
        out / HEAT,
        """\
TOOLBOX TALK - HEAT ILLNESS
Monday, June 2, 2025, 7:00 am - Pelletier job
Led by: Kenji Watanabe
Present: Luis Ferreira, Tom Brennan, Grace Lindholm, Cody Marsh

The forecast is in the high 80s all week and we are on the roof of the addition.

Covered:
 - Drink water every 15-20 minutes, about a quart an hour; do not wait until thirsty.
   Two coolers are in the trailer, refilled at lunch.
 - Shade break of 10 minutes every hour when it's over 85 F - canopy set up by the trailer.
 - New and returning workers build up over the first week (Cody's first summer on a roof).
 - Signs of heat exhaustion: heavy sweating, dizziness, nausea, cramps. Move to shade, cool
   down, water, tell the site lead.
 - Heat stroke (confusion, hot dry skin, passing out) is an emergency: call 911, cool the
   person with water and ice while waiting.
 - Watch your partner. Nobody works alone on the roof.

Roof work starts at 6:30 am this week so we are off the shingles by 2 pm.
""",
    )
