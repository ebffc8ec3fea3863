"""gradtrace's HTTP server: thin routes over ``engine.run``.

Example::

    $ python -m server --host 127.0.0.1 --port 8000
"""
