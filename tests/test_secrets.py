"""Secrets never travel to an LLM: `fsnb.text.redact.mask_secrets` and the loop that applies it.

Fake credentials are assembled at run time so that secret scanners do not flag this file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

import fsnb
from fsnb.agent import Action, Explorer
from fsnb.agent import events as ev
from fsnb.cli import build_parser
from fsnb.documents import parse
from fsnb.errors import FsnbError
from fsnb.llm import Conversation, ReplayLLM, Reply
from fsnb.text.redact import MARKER, mask_secrets

DATA = Path(__file__).resolve().parent.parent / "data"

AWS_ID = "AKIA" + "Q3EXAMPLE7KEY4ID"  # 20 characters, the AWS shape
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GITHUB = "ghp_" + "x1Y2z3W4" * 4 + "AbCd"
GITHUB_OAUTH = "gho_" + "Q9r8S7t6" * 4 + "UvWx"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0" + "_k2J4m6N8p0Q2s4" * 3
SLACK = "xoxb-" + "2410987654-" + "5123456789012-" + "Zx9Yw8Vu7Ts6Rq5P"
GOOGLE = "AIza" + "SyD-9tSrke72PouQMnMX" + "-a7eZSW0jkFMBWY"
OPENAI = "sk-proj-" + "T3BlbkFJ" + "a8Zk2Qw9Lm4Xc7Vb1Nd5"
STRIPE = "sk_live_" + "51H8xYz" + "Q2w3E4r5T6y7U8i9"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM_BODY = (
    "MIIEpAIBAAKCAQEA7bq9"
    + "Kz4mQ1x8Vt2LwYc5Rn0Hj3Ue6Gi9Df"
    + "\nPq8s0Lk3Nf7Hw2Mb5Xc9Rt4Yv1Zu6Ae0Bi"
)
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"


def _masked(text: str) -> tuple[str, int]:
    out, count = mask_secrets(text)
    assert count == out.count(MARKER)
    return out, count


@pytest.mark.parametrize(
    ("text", "secrets", "kept", "count"),
    [
        pytest.param(
            "DB_HOST=db.internal\nDB_PASSWORD=Tr0ub4dor&3\nexport API_TOKEN=tok-8f2a91c4\n"
            "SESSION_SECRET='s3ss10n-k3y'\nDEBUG=false\nDB_PASS=hunter2\n",
            ["Tr0ub4dor&3", "tok-8f2a91c4", "s3ss10n-k3y", "hunter2"],
            ["DB_HOST=db.internal", "DB_PASSWORD=", "export API_TOKEN=", "SESSION_SECRET='"],
            4,
            id="dotenv",
        ),
        pytest.param(
            f"aws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\n",
            [AWS_ID, AWS_SECRET],
            ["aws_access_key_id = ", "aws_secret_access_key = "],
            2,
            id="aws-ini",
        ),
        pytest.param(
            "database:\n  host: db.internal\n  user: app\n  password: c0rrect-h0rse  # prod\n"
            '  api_key: "k-9f8e7d6c"\nlogging:\n  level: info\n',
            ["c0rrect-h0rse", "k-9f8e7d6c"],
            ["database:", "host: db.internal", "password: ", "# prod", "api_key: ", "level: info"],
            2,
            id="yaml",
        ),
        pytest.param(
            '{"service": {"user": "bob", "password": "p@ss \\"w0rd\\"", '
            '"oauth": {"client_secret": "cs-7Hq2Lp9"}}, "timeout": 30}',
            ["p@ss", "w0rd", "cs-7Hq2Lp9"],
            ['"user": "bob"', '"password": "', '"client_secret": "', '"timeout": 30'],
            2,
            id="json-nested",
        ),
        pytest.param(
            f"Rotate {AWS_ID} before Friday; the old one was {GITHUB} (see ticket 4411).",
            [AWS_ID, GITHUB],
            ["Rotate ", "before Friday", "(see ticket 4411)"],
            2,
            id="tokens-in-prose",
        ),
        pytest.param(
            f"{GITHUB_OAUTH}\n{GITHUB_PAT}\n{SLACK}\n{GOOGLE}\n{OPENAI}\n{STRIPE}\n{JWT}\n",
            [GITHUB_OAUTH, GITHUB_PAT, SLACK, GOOGLE, OPENAI, STRIPE, JWT],
            [],
            7,
            id="token-shapes",
        ),
        pytest.param(
            f"GET /v1/items HTTP/1.1\nAuthorization: Bearer {JWT}\n"
            "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' https://api.example.com\n",
            [JWT, "dXNlcjpwYXNzd29yZA=="],
            ["Authorization: Bearer ", "Authorization: Basic ", "https://api.example.com"],
            2,
            id="authorization-headers",
        ),
        pytest.param(
            f"Deploy notes\n{PEM}\nThat was the old key.\n",
            [PEM_BODY[:20], PEM_BODY[-12:]],
            ["-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "old key."],
            1,
            id="private-key-block",
        ),
        pytest.param(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9u\n"
            "AAAAAAABAAABlwAAAAdzc2gtcnNhAAAAAwEAAQAAAYEAx\n[result cut at the size budget]",
            ["b3BlbnNzaC1rZXkt", "AAAAAAABAAABlwAAAA"],
            ["-----BEGIN OPENSSH PRIVATE KEY-----", "[result cut at the size budget]"],
            1,
            id="private-key-block-cut-short",
        ),
        pytest.param(
            '{"type": "service_account", "project_id": "acme-prod", '
            '"private_key_id": "4f1c9e2b7a6d5c3e8f0a1b2c3d4e5f6a7b8c9d0e", '
            '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'
            'BKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n", '
            '"client_email": "etl@acme-prod.iam.gserviceaccount.com", '
            '"token_uri": "https://oauth2.googleapis.com/token"}',
            ["4f1c9e2b7a6d", "MIIEvQIBADANBgkq"],
            [
                '"project_id": "acme-prod"',
                '"private_key_id": "',
                "-----BEGIN PRIVATE KEY-----\\n",
                "\\n-----END PRIVATE KEY-----",
                '"client_email": "etl@acme-prod.iam.gserviceaccount.com"',
                '"token_uri": "https://oauth2.googleapis.com/token"',
            ],
            2,
            id="service-account-json",
        ),
        pytest.param(
            '[remote "origin"]\n\turl = https://alice:Gh-Pa55word@github.com/acme/app.git\n'
            "DATABASE_URL=postgres://etl:pg_S3cret@db.internal:5432/warehouse\n"
            "see redis://:r3d1s@cache:6379/0 and https://example.com/docs\n",
            ["Gh-Pa55word", "pg_S3cret", "r3d1s"],
            ["https://alice:", "@github.com/acme/app.git", "postgres://etl:", "@db.internal:5432"],
            3,
            id="url-credentials",
        ),
        pytest.param(
            "Server=tcp:sql.acme.net;Database=erp;User Id=sa;Password=Sup3r!Secret;Encrypt=True\n"
            "https://acme.example/callback?code=42&access_token=at-93KdLq0&state=x\n"
            "machine api.acme.net login bob password n3trc-pw\n"
            "<credentials><username>bob</username><password>xml-pw-1</password></credentials>\n"
            "--password=cl1-secret\n",
            ["Sup3r!Secret", "at-93KdLq0", "n3trc-pw", "xml-pw-1", "cl1-secret"],
            ["Database=erp;", "User Id=sa;", "Encrypt=True", "code=42&", "&state=x", "bob"],
            5,
            id="connection-query-netrc-xml-flag",
        ),
        pytest.param(
            'password: "Pa55(word"\nSECRET_KEY="env-prod-2024"\nsecret_key: ${x}y$z',
            ["Pa55(word", "env-prod-2024", "${x}y$z"],
            ["password: ", "SECRET_KEY=", "secret_key: "],
            3,
            id="odd-characters",
        ),
    ],
)
def test_masks_each_kind(text: str, secrets: list[str], kept: list[str], count: int):
    out, withheld = _masked(text)
    assert withheld == count, out
    for secret in secrets:
        assert secret not in out, out
    for part in kept:
        assert part in out, out


@pytest.mark.parametrize(
    "text",
    [
        "The password policy requires 12 characters and rotation every 90 days.",
        "Analysts describe a token economy; it is no secret that revenue rose 12%.",
        "Password: must be at least 12 characters long\nSecret: the board has not been told.",
        "Reset your password: click the link in the e-mail.",
        "Session: Morning keynote\nAuth: pending\nTokens: 1,500\nToken count: 4096",
        "author: Jane Smith\ntitle: Integration Plan\nmax_tokens: 4096\nsession_timeout: 30",
        "password_policy: strict\nsecret_name: prod/db\ntoken_url: https://auth.example/token",
        "| Item | Amount |\n|---|---|\n| Purchase price | $9,000,000 |\n| Escrow | $900,000 |",
        "SHA-256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "Closing Date: June 30, 2025. Key employees: Dana Ito (CFO), Sam Lee (CTO).",
        "def login(password: str, token: str | None = None):\n    api_key = key\n"
        "    self.session_token = token\n    usage = Usage(prompt_tokens=u.prompt_tokens)",
        "risk-adjusted return on sk-learn-compatible estimators; Bearer bonds were issued.",
        "Authorization: required for all transfers above $10,000.",
        "password: ${DB_PASSWORD}\nPASSWORD=$DB_PW\ntoken = os.environ['X']\npwd = getpass()",
        "DB_PASSWORD=\nsecret: true\napi_key: <your key here>\nPWD=/home/analyst",
    ],
)
def test_leaves_prose_and_code_alone(text: str):
    assert mask_secrets(text) == (text, 0)


def test_sample_corpora_are_unchanged_except_the_planted_secrets():
    changed = set()
    for corpus in ("test_acquisition", "large_acquisition", "mixed"):
        for file in sorted((DATA / corpus).rglob("*")):
            if not file.is_file():
                continue
            try:
                text = parse(file).text
            except FsnbError:  # not a document (.env, a key): as `read` would show it
                try:
                    text = file.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
            if mask_secrets(text) != (text, 0):
                changed.add(file.relative_to(DATA).as_posix())
    assert changed <= {"mixed/.env", "mixed/keys/id_rsa"}
    assert "mixed/.env" in changed


# --- through the exploration loop ----------------------------------------------------------

SECRETS = {
    "prod.env": ["Tr0ub4dor&3x", STRIPE, "tok-8f2a91c4e7"],
    "config/app.yaml": ["c0rrect-h0rse-9"],
    "notes.txt": [AWS_ID, PEM_BODY[:20]],
    "repo/.git/config": ["Gh-Pa55word"],
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "config").mkdir(parents=True)
    (root / "repo" / ".git").mkdir(parents=True)
    (root / "prod.env").write_text(
        f"DB_HOST=db.internal\nDB_PASSWORD=Tr0ub4dor&3x\nSTRIPE_SECRET_KEY={STRIPE}\n"
        "export API_TOKEN=tok-8f2a91c4e7\n"
    )
    (root / "config" / "app.yaml").write_text(
        "database:\n  host: db.internal\n  user: app\n  password: c0rrect-h0rse-9\n"
    )
    (root / "notes.txt").write_text(
        f"Deploy notes\nThe CI uses key {AWS_ID} for uploads.\nOld deploy key:\n{PEM}\n"
    )
    (root / "repo" / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://alice:Gh-Pa55word@github.com/acme/app.git\n'
    )
    (root / "api_tokens.txt").write_text("Which services use API tokens, and who owns them.\n")
    return root


class RecordingLLM:
    """Replays a script and keeps every text the loop sends: system prompt and messages."""

    backend = "recording"
    model = "script"

    def __init__(self, actions: list[Action]) -> None:
        self.replay = ReplayLLM(actions)
        self.sent: list[str] = []

    def next_action(self, conversation: Conversation, notify) -> Reply:
        messages = [m.text for m in conversation.messages()]
        self.sent.append("\n".join([conversation.system, *messages]))
        return self.replay.next_action(conversation, notify)


def _script() -> list[Action]:
    return [
        Action.call("scan_folder", "preview everything"),
        Action.call("read", "the environment", path="prod.env"),
        Action.call("preview_file", "the configuration", path="config/app.yaml"),
        Action.call("grep", "find credentials", pattern="password|AKIA|BEGIN|TOKEN"),
        Action.call("parse_file", "the notes", path="notes.txt"),
        Action.call("read", "the repository settings", path="repo/.git/config"),
        Action.stop("The folder holds deployment settings.", "done"),
    ]


def _run(project: Path, **options) -> tuple[RecordingLLM, list[ev.ToolResult]]:
    llm = RecordingLLM(_script())
    result = fsnb.explore("Which credentials does this project use?", project, llm=llm, **options)
    assert result.ok, result.error
    return llm, [e for e in result.events if isinstance(e, ev.ToolResult)]


def test_the_llm_never_sees_secret_values(project: Path):
    llm, results = _run(project)
    assert len(llm.sent) == 7 and all(r.ok for r in results)
    everything = "\n".join(llm.sent + [r.result for r in results])
    for path, values in SECRETS.items():
        for value in values:
            assert value not in everything, (path, value)
    last = llm.sent[-1]
    for key in ("DB_PASSWORD=", "STRIPE_SECRET_KEY=", "export API_TOKEN=", "DB_HOST=db.internal"):
        assert key in last
    assert "password: [secret withheld]" in last and "https://alice:[secret withheld]@" in last
    assert "-----BEGIN RSA PRIVATE KEY-----\n[secret withheld]\n-----END" in last
    read_env = results[1]
    assert read_env.withheld == 3
    assert read_env.result.endswith(
        "[3 secret values withheld; the user can allow them with reveal_secrets]"
    )
    scan = results[0].result
    assert "api_tokens.txt — " in scan and "(warning: may contain sensitive data)" in scan
    # a person calling the tool by hand still sees the file as it is
    assert "DB_PASSWORD=Tr0ub4dor&3x" in fsnb.tools.read("prod.env", root=str(project))


def test_reveal_secrets_sends_them(project: Path):
    llm, results = _run(project, reveal_secrets=True)
    last = llm.sent[-1]
    for values in SECRETS.values():
        for value in values:
            assert value in last
    assert all(r.withheld == 0 for r in results) and MARKER not in last


def test_explorer_option_cli_flag_and_magics_config(project: Path):
    assert Explorer(project, ReplayLLM()).reveal_secrets is False
    args = build_parser().parse_args(["explore", "q?", "--reveal-secrets"])
    assert args.reveal_secrets is True
    assert build_parser().parse_args(["explore", "q?"]).reveal_secrets is False
    shell = InteractiveShell.instance()
    shell.run_line_magic("reload_ext", "fsnb")
    try:
        shell.user_ns["script"] = ReplayLLM(
            [Action.call("read", "env", path="prod.env"), Action.stop("done", "done")]
        )
        shell.run_cell_magic("explore", f"{project} --llm script --wait -o r", "q?")
        (masked,) = [e for e in shell.user_ns["r"].events if isinstance(e, ev.ToolResult)]
        assert "Tr0ub4dor&3x" not in masked.result and masked.withheld == 3
        shell.run_line_magic("config", "ExploreMagics.reveal_secrets = True")
        shell.user_ns["script"] = ReplayLLM(
            [Action.call("read", "env", path="prod.env"), Action.stop("done", "done")]
        )
        shell.run_cell_magic("explore", f"{project} --llm script --wait -o r", "q?")
        (shown,) = [e for e in shell.user_ns["r"].events if isinstance(e, ev.ToolResult)]
        assert "DB_PASSWORD=Tr0ub4dor&3x" in shown.result
    finally:
        shell.run_line_magic("config", "ExploreMagics.reveal_secrets = False")
        shell.user_ns.pop("script", None)
