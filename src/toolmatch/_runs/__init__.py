"""Many runs: reading TRACES, judging each run against its case, worker processes,
trials, batches from other programs, and specs recorded from runs."""
