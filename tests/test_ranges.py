"""Size and date ranges: the forms people write, their bounds, and one line for bad ones."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from fsnb.text.ranges import DateRange, SizeRange, date_range, size_range

KB, MB = 2**10, 2**20
TODAY = date(2026, 3, 11)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (">10MB", SizeRange(low=10 * MB + 1)),
        (">=10mb", SizeRange(low=10 * MB)),
        ("<1KB", SizeRange(high=KB)),
        ("<= 1 KiB", SizeRange(high=KB + 1)),
        ("1MB-100MB", SizeRange(MB, 100 * MB + 1)),
        ("1.5KB", SizeRange(1536, 1537)),
        ("200", SizeRange(200, 201)),
        ("2GB", SizeRange(2 * 2**30, 2 * 2**30 + 1)),
    ],
)
def test_size_ranges(text: str, expected: SizeRange):
    assert size_range(text) == expected


def test_a_size_range_holds_its_low_bound_and_not_its_high_one():
    between = size_range("1KB-2KB")
    assert KB in between and 2 * KB in between
    assert KB - 1 not in between and 2 * KB + 1 not in between
    assert 0 in size_range("<1KB") and KB not in size_range("<1KB")


@pytest.mark.parametrize("text", ["", "big", ">", "10XB", "5MB-1MB", ">ten", "1MB-"])
def test_a_bad_size_range_says_what_is_accepted(text: str):
    with pytest.raises(ValueError, match=r"bad size range .*: use >10MB, <1KB") as info:
        size_range(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("today", datetime(2026, 3, 11), datetime(2026, 3, 12)),
        ("yesterday", datetime(2026, 3, 10), datetime(2026, 3, 11)),
        ("this-week", datetime(2026, 3, 9), datetime(2026, 3, 16)),
        ("this-month", datetime(2026, 3, 1), datetime(2026, 4, 1)),
        ("this-year", datetime(2026, 1, 1), datetime(2027, 1, 1)),
        ("2026-01", datetime(2026, 1, 1), datetime(2026, 2, 1)),
        ("2025-12", datetime(2025, 12, 1), datetime(2026, 1, 1)),
        ("2025", datetime(2025, 1, 1), datetime(2026, 1, 1)),
        ("2026-02-28", datetime(2026, 2, 28), datetime(2026, 3, 1)),
        (">2026-01-01", datetime(2026, 1, 2), None),
        (">=2026-01", datetime(2026, 1, 1), None),
        ("<2026-01-01", None, datetime(2026, 1, 1)),
        ("<=2026-01", None, datetime(2026, 2, 1)),
        ("2025-01-01..2025-06-30", datetime(2025, 1, 1), datetime(2025, 7, 1)),
        ("2025-03..", datetime(2025, 3, 1), None),
        ("..2025", None, datetime(2026, 1, 1)),
    ],
)
def test_date_ranges(text: str, start: datetime | None, end: datetime | None):
    assert date_range(text, today=TODAY) == DateRange(start, end)


def test_a_date_range_holds_its_start_and_not_its_end():
    january = date_range("2026-01", today=TODAY)
    assert datetime(2026, 1, 1) in january and datetime(2026, 1, 31, 23, 59) in january
    assert datetime(2026, 2, 1) not in january and datetime(2025, 12, 31) not in january


@pytest.mark.parametrize(
    "text", ["", "soon", "2026-13", "2026-02-30", ">", "2026-06..2026-01", "..", "last-week"]
)
def test_a_bad_date_range_says_what_is_accepted(text: str):
    with pytest.raises(ValueError, match=r"bad date range .*: use today, yesterday") as info:
        date_range(text, today=TODAY)
    assert "\n" not in str(info.value)
