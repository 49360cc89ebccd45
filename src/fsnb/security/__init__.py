"""Path confinement and the sensitive-file policy.

Every path a tool receives goes through `Sandbox.resolve`, which refuses `..` escapes,
absolute paths outside the root, symlinks whose target leaves the root and symlink loops;
`Sandbox.existing` also checks that the path is there, and says what is near when it is
not. A checked file is read through `open_file` (`Sandbox.open`), which checks the file it
opened rather than its name, so nothing swapped in after the check (a symlink, a named
pipe) is read or waited on. The sensitive-file policy has three tiers:

- BLOCK: private keys and cloud credentials, never read;
- SKIP: `.env*`, `credentials*`, `secrets*`, left out of scans, readable with a warning;
- WARN: names containing password/token/secret, scanned and read with a warning.

Messages name paths relative to the root, never the root itself; file names that are not
valid UTF-8 are shown with their odd bytes as `\\xNN` (`shown`), and accepted back that way.

The package: `sandbox` (`Sandbox`), `files` (`open_file`, `shown`, why a file failed),
`listing` (`scan`, the one walk) and `sensitive` (the policy, `classify`).
"""

from fsnb.security.files import (
    NAME_MAX,
    PATH_MAX,
    NotRegular,
    Swapped,
    file_kind,
    open_file,
    os_reason,
    shown,
)
from fsnb.security.listing import EXCLUDED_DIRS, IGNORE_FILE, Listed, links_to_folder, scan
from fsnb.security.sandbox import Entry, Kind, Sandbox
from fsnb.security.sensitive import Sensitivity, Verdict, classify, may_flag

__all__ = [
    "EXCLUDED_DIRS",
    "IGNORE_FILE",
    "NAME_MAX",
    "PATH_MAX",
    "Entry",
    "Kind",
    "Listed",
    "NotRegular",
    "Sandbox",
    "Sensitivity",
    "Swapped",
    "Verdict",
    "classify",
    "file_kind",
    "links_to_folder",
    "may_flag",
    "open_file",
    "os_reason",
    "scan",
    "shown",
]
