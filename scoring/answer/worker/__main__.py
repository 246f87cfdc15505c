"""`python -m scoring.answer.worker [MEMORY_MB]`: one worker process, serving until its input ends."""

import sys

from scoring.answer.worker.process import serve

serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
