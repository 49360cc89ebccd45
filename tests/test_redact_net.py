"""The secret masker against hostile input: Docling's Markdown escapes, credentials in
prose, passphrases, table cells, PDF reflow, labelled keys, key bodies without their BEGIN
line, split JWTs, text built to make patterns slow, and the sample corpora.

Fake credentials are assembled at run time so that secret scanners do not flag this file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fsnb.text.redact import MARKER, mask_secrets

ROOT = Path(__file__).resolve().parent.parent

AWS_ID = "AKIA" + "Q3EXAMPLE7KEY4ID"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GITHUB = "ghp_" + "x1Y2z3W4" * 4 + "AbCd"
JWT_PARTS = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ",
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
)
JWT = ".".join(JWT_PARTS)
B64_KEY = "q3Zr9xTq" + "Lw8vN2pK5sY7aB1cD4eF6gH0jK3mN5pQ7rS9tU1v" + "Ab=="
#: A PEM body as 64-character lines (DER starts "MII").
KEY_LINES = [
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" + "q3Zr9xTqLw8v",
    "N2pK5sY7aB1cD4eF6gH0jK3mN5pQ7rS9tU1vWx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn8O",
    "p0Qr2St4Uv6Wx8Yz0Ab2Cd4Ef6Gh8Ij0Kl2Mn4Op6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef",
    "Gh2Ij4Kl6Mn8Op0Qr2==",
]


def _masked(text: str) -> tuple[str, int]:
    """Masked text and count, checked for what holds of every mask: the count is the
    number of markers, and masking again changes nothing."""
    out, count = mask_secrets(text)
    assert count == out.count(MARKER) - text.count(MARKER), out
    assert mask_secrets(out) == (out, 0), out
    return out, count


def _check(text: str, secrets: list[str], kept: list[str], count: int) -> str:
    out, withheld = _masked(text)
    assert withheld == count, out
    for secret in secrets:
        assert secret not in out, out
    for part in kept:
        assert part in out, out
    return out


# --- 1. Docling's Markdown escapes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secrets", "kept", "count"),
    [
        pytest.param(
            "aws\\_secret\\_access\\_key = Zx9-s3cret-value\n",
            ["Zx9-s3cret-value"],
            ["aws_secret_access_key = "],
            1,
            id="escaped-key-name",
        ),
        pytest.param(
            f"The CI token is {GITHUB.replace('_', chr(92) + '_')} (rotate it).",
            [GITHUB[4:], GITHUB.replace("_", "\\_")],
            ["The CI token is", "(rotate it)."],
            1,
            id="escaped-token",
        ),
        pytest.param(
            "db\\_password: P\\*ss\\#w0rd!\nnote: R&amp;D budget \\[1\\]\n",
            ["P*ss#w0rd!", "P\\*ss", "w0rd"],
            ["db_password: ", "note: R&D budget [1]"],
            1,
            id="escaped-punctuation",
        ),
        pytest.param(
            "DB_PASSWORD=Tr0ub4dor&amp;3\n",
            ["Tr0ub4dor", "&amp;3"],
            ["DB_PASSWORD="],
            1,
            id="entity-in-value",
        ),
        pytest.param(
            "session\\_jwt: " + JWT.replace("_", "\\_") + "\n",
            [JWT_PARTS[1], JWT_PARTS[2].replace("_", "\\_")],
            ["session_jwt: "],
            1,
            id="escaped-jwt",
        ),
    ],
)
def test_sees_through_markdown_escapes(text, secrets, kept, count):
    _check(text, secrets, kept, count)


def test_escaped_text_without_secrets_is_left_as_written():
    text = "snake\\_case names \\*emphasis\\* and R&amp;D in a report"
    assert mask_secrets(text) == (text, 0)


def test_json_escapes_still_mask_as_written():
    text = '{"password": "p@ss \\"w0rd\\"", "path": "a\\/b", "note": "x\\_y"}'
    out = _check(text, ["p@ss", "w0rd"], ['"password": "', '"path"'], 1)
    assert out.count(MARKER) == 1


# --- 2. credentials named in sentences ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the admin password is hunter2!", "hunter2"),
        ("The password for the VPN is Tr0ub4dor&3 until Friday.", "Tr0ub4dor&3"),
        ("my PIN/passcode is 4821.", "4821"),
        ("Her passphrase was 'Blue-Sky-42' last year.", "Blue-Sky-42"),
        ("The wifi password is: c0ffeeShop", "c0ffeeShop"),
    ],
)
def test_masks_a_credential_in_a_sentence(text: str, secret: str):
    out, count = _masked(text)
    assert count == 1 and secret not in out, out
    assert out.split(MARKER)[0] == text.split(secret)[0]


@pytest.mark.parametrize(
    "text",
    [
        "the password is required",
        "the password is at least 12 characters",
        "password is stored in the vault",
        "The password is 12-characters long and the PIN is 4 digits.",
        "The password was changed on 12/03/2024 by the admin.",
        "The password is SHA256 hashed before storage.",
        "Your passcode is valid for 10 minutes.",
        "The pin is located on the left side of the hinge.",
    ],
)
def test_leaves_sentences_about_credentials_alone(text: str):
    assert mask_secrets(text) == (text, 0)


# --- 3. passphrases -----------------------------------------------------------------------


def test_masks_a_passphrase_on_its_own_line():
    text = "Service: VPN\nPassword: correct horse battery staple\nOwner: Dana"
    _check(text, ["correct horse", "staple"], ["Password: ", "Owner: Dana"], 1)


@pytest.mark.parametrize(
    "text",
    [
        "Password: must be 12 characters",
        "Password: provided separately",
        "Password: see the vault entry",
        "Password: stored in the manager",
        "Password: Ask IT for a reset",
    ],
)
def test_password_notes_stay_prose(text: str):
    assert mask_secrets(text) == (text, 0)


# --- 4. table cells -----------------------------------------------------------------------


def test_masks_a_credential_column_of_a_markdown_table():
    text = (
        "| Service | Username | Password |\n|---------|----------|----------|\n"
        "| VPN     | alice    | Hunter2!x |\n| DB      | bob      | pa|ss_w0rd |\n"
        "| Wiki    | carol    | correct horse battery |\n| Mail | dan | Expired |\n"
    ).replace("pa|ss", "pa&#124;ss")
    out = _check(
        text,
        ["Hunter2!x", "ss_w0rd", "correct horse"],
        ["| Service | Username | Password |", "| VPN     | alice    | ", "| Expired |"],
        3,
    )
    assert "| alice    | [secret withheld] |" in out


def test_masks_the_value_beside_a_credential_label():
    text = (
        "| Setting | Value |\n|---|---|\n| api_key | sk-" + "Ab3dE6gH9jK2mN5pQ8rS |\n"
        "| Password | hunter2 |\n| Password | must be 12 characters |\n| Host | db.internal |\n"
    )
    _check(
        text,
        ["Ab3dE6gH9jK2", "hunter2"],
        ["| api_key | ", "| Password | must be 12 characters |", "| Host | db.internal |"],
        2,
    )


def test_a_key_value_table_whose_first_row_is_the_header():
    text = "| Password | Tr0ub4dor3 |\n|---|---|\n| Username | alice |\n"
    _check(text, ["Tr0ub4dor3"], ["| Password | ", "| Username | alice |"], 1)


def test_a_reflowed_pdf_table_with_blank_lines_between_rows():
    text = "Account | PIN | Branch\n\nChecking | 4821 | Main St\n\nSavings | 9034 | Elm St\n"
    _check(text, ["4821", "9034"], ["Account | PIN | Branch", "Checking | ", "| Main St"], 2)


def test_csv_and_tsv():
    text = (
        'name,password,team\nbob,Secr3t!,ops\nann,"pa,ss1",dev\n\nuser\tapi_token\nx\ttk-9fA7bQ2c\n'
    )
    _check(text, ["Secr3t!", "pa,ss1", "tk-9fA7bQ2c"], ["name,password,team", "bob,", ",ops"], 3)


def test_a_pandas_frame_as_query_data_prints_it():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(
        {
            "service": ["VPN", "Database server"],
            "username": ["alice", "bob"],
            "password": ["Hunter2!x", "correct horse"],
            "region": ["eu", "us"],
        }
    )
    text = frame.to_string(index=False)
    out = _check(text, ["Hunter2!x", "correct horse"], ["service", "alice", "bob", "eu"], 2)
    assert out.splitlines()[0] == text.splitlines()[0]


@pytest.mark.parametrize(
    "text",
    [
        "| Item | Amount |\n|---|---|\n| Purchase price | $9,000,000 |",
        "| Control | Owner | Status |\n|---|---|---|\n| Password policy | IT | Done |",
        "| Key employee | Role | Bonus |\n|---|---|---|\n| Dana Ito | CFO | $250,000 |",
        "| User | Password |\n|---|---|\n| alice | n/a |\n| bob | SSO |\n| carol | Reset |",
        "| Token | Price |\n|---|---|\n| ETH | 3000 |\n| USDC | 1 |",
        "Date | Description | Category | Amount\n\n01/02/2025 | Shopping | Shopping | $49.00",
        "We reviewed the password, token, and key rotation policies, among others.",
        "        name  password_policy\n       alice           strict",
    ],
)
def test_tables_without_credentials_stay(text: str):
    assert mask_secrets(text) == (text, 0)


# --- 5. PDF reflow ------------------------------------------------------------------------


def test_a_value_run_on_into_the_next_sentence():
    text = "Password: Hunter2!x Please rotate quarterly.\nAPI key: q3Zr9x7Lw8vN2pK5 See the runbook"
    _check(
        text, ["Hunter2!x", "q3Zr9x7Lw8vN2pK5"], ["Please rotate quarterly.", "See the runbook"], 2
    )


@pytest.mark.parametrize(
    "joined",
    [
        ".\n".join(JWT_PARTS),
        ". ".join(JWT_PARTS),
        JWT[:60] + "-\n" + JWT[60:],
        JWT[:30] + "- " + JWT[30:],
    ],
)
def test_a_jwt_split_over_lines(joined: str):
    text = f"Session token\n{joined}\nExpires in one hour."
    _check(
        text, [JWT_PARTS[0][5:], JWT_PARTS[1][5:], JWT_PARTS[2][5:]], ["Expires in one hour."], 1
    )


def test_a_jwt_in_office_text():
    text = (
        f"Use the header Authorization Bearer in the call; the sample value is {JWT}, valid today."
    )
    _check(text, [JWT_PARTS[1]], ["valid today."], 1)


# --- 6. labelled base64 keys and AWS secrets ---------------------------------------------


def test_labelled_base64_keys():
    other = B64_KEY[::-1].strip("=") + "=="
    text = f"Encryption key: {B64_KEY}\nStorage account key: {other}\nMaster key: rotated"
    _check(text, [B64_KEY, other], ["Encryption key: ", "Storage account key: "], 2)


def test_a_bare_aws_secret_beside_aws_words():
    text = f"AWS credentials for the CI user\n{AWS_ID}\n{AWS_SECRET}\n"
    _check(text, [AWS_ID, AWS_SECRET], ["AWS credentials for the CI user"], 2)


def test_a_bare_40_character_string_without_aws_context_stays():
    text = f"Build artefact digest\n{AWS_SECRET}\nsha1 da39a3ee5e6b4b0d3255bfef95601890afd80709"
    assert mask_secrets(text) == (text, 0)


# --- 7. private-key bodies without their BEGIN line ---------------------------------------


def test_grep_hits_inside_a_key_file():
    text = "\n".join(f"{n}: {line}" for n, line in enumerate(KEY_LINES, 12)) + "\n16: done"
    out = _check(text, [line[:30] for line in KEY_LINES], ["12: ", "16: done"], 1)
    assert out.startswith("12: " + MARKER)


def test_full_width_key_lines_without_der():
    text = "Body follows\n" + "\n".join(KEY_LINES[1:]) + "\nEnd of note."
    _check(
        text,
        [KEY_LINES[1][:30], KEY_LINES[2][:30], KEY_LINES[3]],
        ["Body follows", "End of note."],
        1,
    )


def test_certificates_and_hex_digests_stay():
    cert = "-----BEGIN CERTIFICATE-----\n" + "\n".join(KEY_LINES) + "\n-----END CERTIFICATE-----"
    digests = "\n".join(["9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"] * 3)
    for text in (cert, digests):
        assert mask_secrets(text) == (text, 0)


# --- 9. linear time ----------------------------------------------------------------------


def test_adversarial_text_is_masked_correctly():
    """Text built to make backtracking patterns slow (a BEGIN line without END, base64
    runs, thousands of keys, megabyte lines). Only correctness is asserted: the figures
    are in bench/secrets_fp.py's report."""
    begin = "-----BEGIN RSA PRIVATE KEY-----"
    parts = [
        (begin + "\nabc\n") * 20_000,
        begin + "\n" + "word " * 100_000,
        "A" * 500_000,
        "password=" * 50_000,
        "abc def password: x " * 20_000,
        "xoxb-" * 50_000 + "_",
        ("eyJ" + "a" * 20 + ".") * 20_000,
        "| " * 100_000,
        "key " * 100_000,
        f"\nDB_PASSWORD=Tr0ub4dor&3\n{JWT}\n",
    ]
    text = "\n".join(parts)
    out, count = mask_secrets(text)
    assert "Tr0ub4dor&3" not in out and JWT not in out and count >= 2
    assert out.count(MARKER) == count


# --- 10. the sample corpora ---------------------------------------------------------------


def test_the_false_positive_script_finds_none_in_the_statements():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import secrets_fp
    finally:
        sys.path.remove(str(ROOT / "bench"))
    report = secrets_fp.main(["statements"])
    assert report["documents"] >= 12 and report["masked"] == 0, json.dumps(report["examples"])


# --- markers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"Password: {MARKER}",
        f"| Password |\n|---|\n| {MARKER} |",
        f"the password is {MARKER}",
        f"12: {MARKER}",
        f"name,password\nbob,{MARKER}",
    ],
)
def test_the_marker_is_never_masked_again(text: str):
    assert mask_secrets(text) == (text, 0)
