"""`stepgrade store assign`: give the grades stored while no API keys were set to one key.

Every stored grade has an owner: the key that graded it (a hash of it), or `default` when the
service ran without keys. A key sees its own grades only, so turning keys on hides the grades
made before; this gives them to one key, corrections included.
"""

from __future__ import annotations

import argparse
import sys

EXIT_USAGE = 2


def add_store_commands(sub: argparse._SubParsersAction) -> None:
    """Add `store assign` to the stepgrade parser."""
    store = sub.add_parser(
        "store", help="the grade store: give grades stored without a key to a key"
    )
    ssub = store.add_subparsers(dest="store_command", required=True)
    assign = ssub.add_parser(
        "assign",
        help="give the grades stored while no API keys were set to one key",
        description="Give every grade stored while STEPGRADE_API_KEYS was unset (and its "
        "corrections) to the owner of one key, so that key sees them in /grades and the review "
        "queue. The store is the service's (STEPGRADE_DATABASE_URL or STEPGRADE_DATA_DIR).",
    )
    assign.add_argument(
        "--key",
        help="the key to give them to (default: read it from standard "
        "input, which keeps it out of the process list)",
    )
    assign.add_argument("--dry-run", action="store_true", help="only say how many would move")
    assign.set_defaults(func=_assign)


def _assign(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from server.core.security import DEFAULT_OWNER, owner_id
    from server.core.settings import Settings
    from server.store.engine import open_store
    from server.store.repository import count_by_owner, reassign_owner

    try:
        settings = Settings()
    except ValidationError as err:
        print(f"stepgrade store: invalid STEPGRADE_* settings: {err}", file=sys.stderr)
        return EXIT_USAGE
    key = args.key if args.key is not None else sys.stdin.readline().strip()
    if not key:
        print(
            "stepgrade store: no key given (--key, or one line on standard input)", file=sys.stderr
        )
        return EXIT_USAGE
    configured = [k.get_secret_value() for k in settings.api_keys]
    if configured and key not in configured:
        print(
            "stepgrade store: that key is not one of STEPGRADE_API_KEYS: the grades would go "
            "to an owner no caller can be",
            file=sys.stderr,
        )
        return EXIT_USAGE
    url = settings.store_url
    if url is None:
        print("stepgrade store: the grade store is off (STEPGRADE_STORE=off)", file=sys.stderr)
        return EXIT_USAGE
    store = open_store(url)
    try:
        with store.session() as session:
            if args.dry_run:
                moved = count_by_owner(session, DEFAULT_OWNER)
                print(f"{moved} grades stored without a key would be given to this key")
            else:
                moved = reassign_owner(session, DEFAULT_OWNER, owner_id(key))
                print(f"gave {moved} grades stored without a key to this key")
    finally:
        store.close()
    return 0
