"""The table's web app (issue 10): each player's phone is a private screen, any screen can mirror the board.

`views` builds what each audience may see, `seats` keeps the per-seat tokens, `companion` is the board loop's
side (the inbox it drains, the snapshots it hands over), `server` is the Starlette app and `service` runs it with
uvicorn in a thread of the referee's process. Starlette and uvicorn are imported by `server`/`service` only.
"""
