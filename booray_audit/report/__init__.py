"""What a person or a script reads: the JSON document (``document``), the text report
(``text``, with rich) and a hand shown trick by trick (``explain``).  Imports the
``judge`` and below."""
