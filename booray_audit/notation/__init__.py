"""BHH, the text: the reader (``reader``: the Lark grammar's syntax and its messages in
``syntax``, the fast reader for plain hands in ``strict``), the tidy writer
(``writer``) and the commented hand `new` prints (``template``).  Builds ``record``
values; may import ``rules`` (a tag names a profile) and nothing above it."""
