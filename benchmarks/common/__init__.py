"""What more than one benchmark uses, one idea a module: ``units`` (timing, printing, quoting the
command, publishing a report), ``environment`` (the machine and source a run was on), ``peer``
(rummikub-solver driven through its API), ``verdicts`` (both sides' answers re-checked and
compared), ``cold_start`` (one process per solve) and ``buckets`` (Rummikub positions by table and
rack size)."""
