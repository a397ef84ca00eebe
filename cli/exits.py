"""Exit codes shared by every command: bad input, and those beyond 0-3 that follow the shell's
conventions."""

EXIT_BAD_INPUT = 2  # a one-line error naming the bad token

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process stopped by Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports `... | head -1`
