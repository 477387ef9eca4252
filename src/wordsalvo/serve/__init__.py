"""The HTTP service of ``wordsalvo serve`` (the extra ``wordsalvo[serve]``).

:func:`~wordsalvo.serve.app.create_app` builds the ASGI application; the modules:
``config`` (limits, keys, origins, lexicons), ``engines`` (what is loaded once per
process, a generator per thread), ``service`` (the work of each endpoint), ``schemas``
(the JSON bodies), ``problems`` (RFC 9457 errors), ``limits`` (body size, slow bodies,
keys, metrics) and ``static/play.html`` (the page at ``/play``).  The package sits above
the core, like the commands: nothing below imports it.
"""
