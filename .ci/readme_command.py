"""Print the README command under the marker `<!-- command:NAME -->` (CI runs exactly that)."""

import re
import sys
from pathlib import Path

name = sys.argv[1]
readme = Path(__file__).resolve().parent.parent.joinpath("README.md").read_text(encoding="utf-8")
found = re.search(rf"<!-- command:{re.escape(name)} -->\s*```bash\n(.+?)\n```", readme, re.S)
if found is None:
    sys.exit(f"README.md has no command marked <!-- command:{name} -->")
print(found.group(1).strip())
