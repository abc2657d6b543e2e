"""pokerroom's application layer: the command line now; the websocket server, store and bus
as they land. The only package that does I/O; the rules live in :mod:`engine`."""
