"""A job queue whose failed jobs are retried with exponential backoff."""

import random
import time


def compute_backoff(attempt, base=0.5, cap=60.0):
    """Return the delay before retry number `attempt`, with full jitter."""
    return random.uniform(0, min(cap, base * 2 ** attempt))


class JobQueue:
    def __init__(self, max_attempts=5):
        self.jobs = []
        self.max_attempts = max_attempts

    def enqueue(self, job):
        self.jobs.append(job)

    def run_once(self):
        job = self.jobs.pop(0)
        for attempt in range(self.max_attempts):
            try:
                return job()
            except Exception:
                time.sleep(compute_backoff(attempt))
        raise RuntimeError("job failed after retries")
