"""Each question meldsat answers, as one library function: the request's fields in, a typed answer
with its JSON form out. The command line and the web server both call these and only parse and
print; nothing here imports ``meldsat.cli`` or knows about HTTP.

One module per family of questions (import it by its path, for example
``meldsat.answers.check``), so that loading one answer does not load the others' dependencies.
"""
