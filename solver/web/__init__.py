"""``meldsat serve``: a JSON API that mirrors the commands, and one page for players.

The answers are built by the same library functions as the commands' ``--json`` output
(``meldsat.answers``), so a program gets the same objects from either. Starlette and uvicorn come
with the ``web`` extra (``pip install 'meldsat[web]'``); nothing else in the package needs them.
"""
