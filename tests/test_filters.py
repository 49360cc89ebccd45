"""The metadata filter language: parsing, checking against a schema, SQL run on DuckDB."""

from __future__ import annotations

import json

import duckdb
import pytest

from fsnb.errors import FsnbError
from fsnb.index.filters import (
    Condition,
    FilterError,
    check_fields,
    compile_filter,
    parse_filter,
    to_sql,
)

SCHEMA = {
    "document_type": "string",
    "mentions_currency": "boolean",
    "amounts": "list[number]",
    "max_amount": "number",
    "currencies": "list[string]",
    "dates": "list[date]",
    "signed": "date",
    "year": "number",
    "people": "list[string]",
    "organizations": "list[string]",
}

DOCS = [
    ("deal/agreement.pdf", "Acquisition Agreement", "pdf", 12, 30_000, {
        "document_type": "agreement", "mentions_currency": True,
        "amounts": [45_000_000, 30_000_000], "max_amount": 45_000_000,
        "currencies": ["USD"], "dates": ["2025-01-15", "2025-03-01"], "signed": "2025-01-15",
        "year": 2025, "people": ["James Mitchell", "Dr. Sarah Chen"],
        "organizations": ["TechCorp Industries, Inc.", "StartupXYZ LLC"],
    }),
    ("deal/risk memo.docx", "Risk Assessment Memo", "docx", 3, 8_000, {
        "document_type": "memo", "mentions_currency": True, "amounts": [2_500_000],
        "max_amount": 2_500_000, "currencies": ["USD", "EUR"], "dates": ["2024-12-20"],
        "signed": "2024-12-20", "year": 2024, "people": ["Sarah Chen"], "organizations": [],
    }),
    ("notes/readme.md", "Notes", "md", 1, 500, {
        "document_type": "other", "mentions_currency": False, "amounts": [],
        "max_amount": None, "currencies": [], "dates": [], "year": None, "people": [],
        "organizations": [],
    }),
    ("notes/legacy.txt", None, "txt", 1, 100, {}),
]  # fmt: skip


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE documents (path VARCHAR, title VARCHAR, format VARCHAR, pages INTEGER,"
        " chars INTEGER, metadata JSON)"
    )
    for path, title, fmt, pages, chars, meta in DOCS:
        con.execute(
            "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?)",
            [path, title, fmt, pages, chars, json.dumps(meta)],
        )
    yield con
    con.close()


def paths(con, expr: str) -> list[str]:
    sql, params = compile_filter(expr, SCHEMA)
    assert params == [] or "?" in sql
    rows = con.execute(f"SELECT path FROM documents d WHERE {sql} ORDER BY path", params)
    return [row[0] for row in rows.fetchall()]


# -- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["=", "!=", ">=", "<=", ">", "<", "~"])
def test_parse_each_operator(op):
    (condition,) = parse_filter(f"year{op}2025")
    assert (condition.field, condition.op, condition.value, condition.column) == (
        "year", op, 2025, 1,
    )  # fmt: skip


def test_parse_in_list_with_quotes_and_spaces():
    (condition,) = parse_filter("""  people IN ( Sarah , 'Dr. Sarah Chen', "O'Brien, J." )  """)
    assert condition.op == "in"
    assert condition.value == ("Sarah", "Dr. Sarah Chen", "O'Brien, J.")
    assert condition.column == 3


def test_parse_values():
    conditions = parse_filter(
        "a = 1,200,000 AND b>=4.2M and c<$5k and d=true and e=FALSE and f='12' and g=2025-02-15"
        r' and h="say \"hi\"" and i=-3 and j=0 and k=1e6'
    )
    values = {c.field: c.value for c in conditions}
    assert values == {
        "a": 1_200_000, "b": 4_200_000, "c": 5_000, "d": True, "e": False, "f": "12",
        "g": "2025-02-15", "h": 'say "hi"', "i": -3, "j": 0, "k": 1_000_000,
    }  # fmt: skip
    assert [c.column for c in conditions][:3] == [1, 19, 31]
    assert parse_filter("") == parse_filter("   ") == []
    assert parse_filter("x==1")[0].op == "="


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("amount", "column 7: expected an operator after 'amount', found the end of the filter"),
        ("amount 5", "column 8: expected an operator after 'amount', found '5'"),
        ("document_type=memo and amount", "column 30: expected an operator after 'amount'"),
        ("=3", "column 1: expected a field name, found '=3'"),
        ("year>=", "column 7: expected a value after '>='"),
        ("title=Risk Memo", "column 12: expected 'and' or the end of the filter, found 'Memo'"
         " (quote values that contain spaces)"),
        ("year=1 and", "column 11: expected a condition after 'and'"),
        ("year in 2025", "column 9: expected '(' after 'in', found '2025'"),
        ("year in (2024, 2025", "column 20: expected ',' or ')' in the list"),
        ("title='Risk", "column 7: unterminated quoted value (no closing ')"),
        ("year=1 or year=2", "column 8: expected 'and' or the end of the filter, found 'or'"),
    ],
)  # fmt: skip
def test_syntax_errors_name_the_column(expr, message):
    with pytest.raises(FilterError) as info:
        parse_filter(expr)
    assert str(info.value).startswith("filter syntax error at ")
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, FsnbError)


# -- checking against the schema ------------------------------------------------------------


def test_unknown_field_suggests_a_close_match():
    with pytest.raises(FilterError, match=r"unknown filter field 'amout' \(did you mean 'amounts'\?\); known fields: amounts, chars, currencies"):  # fmt: skip
        check_fields(parse_filter("amout>=5"), SCHEMA)
    with pytest.raises(FilterError) as info:
        check_fields(parse_filter("zzz=1"), SCHEMA)
    assert "did you mean" not in str(info.value)
    assert "title" in str(info.value)  # the built-in columns are known fields too


def test_field_names_match_ignoring_case():
    check_fields(parse_filter("Document_Type=memo and PAGES>1"), SCHEMA)


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("title>=5", "operator '>=' does not apply to 'title' (a string field); use =, !=, in, ~"),
        ("year~20", "operator '~' does not apply to 'year' (a number field)"),
        ("mentions_currency>true", "operator '>' does not apply to 'mentions_currency'"),
        ("people<Chen", "operator '<' does not apply to 'people' (a list[string] field)"),
        ("year=recent", "'year' is a number field; 'recent' is not a number"),
        ("amounts in (1, lots)", "'amounts' is a number field; 'lots' is not a number"),
        ("mentions_currency=yes", "'mentions_currency' is a boolean field; use true or false"),
        ("signed>=last-week", "'signed' is a date field; use a date like 2025-02-15"),
        ("dates=2025-13", "'dates' is a date field"),
    ],
)
def test_type_mismatches(expr, message):
    with pytest.raises(FilterError) as info:
        check_fields(parse_filter(expr), SCHEMA)
    assert message in str(info.value)


# -- SQL, executed on DuckDB ---------------------------------------------------------------

AGREEMENT, LEGACY, MEMO, README = (
    "deal/agreement.pdf", "notes/legacy.txt", "deal/risk memo.docx", "notes/readme.md",
)  # fmt: skip


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("", [AGREEMENT, MEMO, LEGACY, README]),
        ("document_type=memo", [MEMO]),
        ("document_type=MEMO", [MEMO]),
        ("document_type!=memo", [AGREEMENT, LEGACY, README]),  # missing values are "not memo"
        ("document_type in (memo, agreement)", [AGREEMENT, MEMO]),
        ("document_type~EMO", [MEMO]),
        ("max_amount>=2500000", [AGREEMENT, MEMO]),
        ("max_amount>2.5M", [AGREEMENT]),
        ("max_amount<=$2.5M", [MEMO]),
        ("max_amount<1e9 and year=2024", [MEMO]),
        ("year in (2024, 2026)", [MEMO]),
        ("year!=2025", [MEMO, LEGACY, README]),
        ("max_amount='45,000,000'", [AGREEMENT]),
        ("mentions_currency=true", [AGREEMENT, MEMO]),
        ("mentions_currency=false", [README]),
        ("mentions_currency!=true", [LEGACY, README]),
        ("amounts=30000000", [AGREEMENT]),
        ("amounts in (1, 2500000)", [MEMO]),
        ("amounts>=40M", [AGREEMENT]),
        ("amounts<3M", [MEMO]),
        ("currencies=eur", [MEMO]),
        ("currencies!=EUR", [AGREEMENT, LEGACY, README]),
        ("currencies in (GBP, EUR)", [MEMO]),
        ("people='Sarah Chen'", [MEMO]),
        ("people~chen", [AGREEMENT, MEMO]),
        ("people~'dr. sarah'", [AGREEMENT]),
        ("organizations~llc and people~mitchell", [AGREEMENT]),
        ("signed=2025", [AGREEMENT]),
        ("signed=2024-12", [MEMO]),
        ("signed=2024-12-20", [MEMO]),
        ("signed>=2025-01-15", [AGREEMENT]),
        ("signed>2025-01-15", []),
        ("signed<=2024", [MEMO]),
        ("signed<2025-01-15", [MEMO]),
        ("signed in (2023, 2025-01)", [AGREEMENT]),
        ("signed~12-20", [MEMO]),
        ("dates=2025-03", [AGREEMENT]),
        ("dates>2025-02", [AGREEMENT]),
        ("dates<2025", [MEMO]),
        ("dates in (2024-12-20, 2026)", [MEMO]),
        ("dates!=2025", [MEMO, LEGACY, README]),
        ("path~notes/", [LEGACY, README]),
        ("path='deal/risk memo.docx'", [MEMO]),
        ("title~agreement", [AGREEMENT]),
        ("format in (pdf, md)", [AGREEMENT, README]),
        ("pages>=3 and chars<10000", [MEMO]),
        ("pages=1", [LEGACY, README]),
    ],
)
def test_sql_selects_the_right_documents(con, expr, expected):
    assert paths(con, expr) == sorted(expected)


def test_values_never_enter_the_sql(con):
    hostile = "x'); DROP TABLE documents; --"
    sql, params = compile_filter(f'document_type="{hostile}" and people~"{hostile}"', SCHEMA)
    assert hostile not in sql and "DROP" not in sql
    assert hostile.lower() in params
    assert paths(con, f'document_type="{hostile}"') == []
    assert con.execute("SELECT count(*) FROM documents").fetchone()[0] == len(DOCS)


def test_odd_field_names_are_parameters_too(con):
    con.execute("""INSERT INTO documents VALUES ('odd.md', 'Odd', 'md', 1, 1, '{"a\\"b": 7}')""")
    try:
        sql, params = to_sql([Condition('a"b', "=", 7)], {'a"b': "number"})
        assert 'a"b' not in sql
        rows = con.execute(f"SELECT path FROM documents d WHERE {sql}", params).fetchall()
        assert rows == [("odd.md",)]
    finally:
        con.execute("DELETE FROM documents WHERE path = 'odd.md'")


def test_to_sql_checks_fields_first():
    with pytest.raises(FilterError, match="unknown filter field"):
        to_sql(parse_filter("nope=1"), SCHEMA)
    assert to_sql([], SCHEMA) == ("TRUE", [])


def test_end_to_end_on_the_real_schema():
    """extract_metadata -> documents.metadata, discover_schema -> schema, then filter."""
    from fsnb.db.schema import migrate
    from fsnb.index.field_schema import discover_schema
    from fsnb.index.metadata import extract_metadata

    texts = {
        "agreement.pdf": ("Acquisition Agreement", "The price is $45,000,000, signed by James "
                          "Mitchell, CEO of TechCorp Industries, Inc. on January 15, 2025."),
        "memo.docx": ("Risk Memo", "Dr. Sarah Chen flags a EUR 2.5 million exposure (March 2024)."),
        "notes.md": ("Notes", "Nothing to see here."),
    }  # fmt: skip
    con = duckdb.connect()
    migrate(con)
    metas = []
    for path, (title, text) in texts.items():
        fmt = path.rsplit(".", 1)[1]
        meta = extract_metadata(text, title=title, path=path, format=fmt)
        metas.append(meta)
        con.execute(
            "INSERT INTO documents (corpus_id, path, title, format, pages, chars, text, metadata)"
            " VALUES (1, ?, ?, ?, 1, ?, ?, ?)",
            [path, title, fmt, len(text), text, json.dumps(meta)],
        )
    schema = {entry["field"]: entry["type"] for entry in discover_schema(metas)}

    def run(expr: str) -> list[str]:
        sql, params = compile_filter(expr, schema)
        query = f"SELECT path FROM documents d WHERE d.corpus_id = 1 AND {sql} ORDER BY path"
        return [row[0] for row in con.execute(query, params).fetchall()]

    assert run("document_type=agreement and max_amount>=1M") == ["agreement.pdf"]
    assert run("currencies=EUR and year=2024") == ["memo.docx"]
    assert run("organizations~techcorp and dates>=2025-01") == ["agreement.pdf"]
    assert run("mentions_currency=false") == ["notes.md"]
    assert run("format in (pdf, docx) and people~sarah") == ["memo.docx"]
    con.close()
