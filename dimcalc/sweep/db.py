"""The sweep database: one SQLite file that other tools can query (schema in ``docs/sweep.md``).

Durability and concurrency come from SQLite itself, not from dimcalc:

* the file is in WAL mode; every write is one transaction (``BEGIN
  IMMEDIATE`` ... ``COMMIT``): the rows of one class appear all at once or
  not at all, so a sweep killed at any instant (Ctrl-C, crash, ``kill -9``)
  loses only the class it was computing;
* ``UNIQUE (class_id, dimension)`` and ``UNIQUE (class_id, item)`` make a
  result impossible to store twice; a resumed sweep asks the ``completed``
  table what is done and computes only the rest;
* several sweeps may write one file at once: writers wait for each other
  (``busy_timeout``), and a result already stored by another sweep is kept
  (``INSERT ... ON CONFLICT DO NOTHING``).  An inexact result (stopped by a
  time limit) may be replaced by a later one with ``retry_inexact``; an exact
  one never is.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError
from .canonical import CanonicalClass

__all__ = ["SweepDB", "SCHEMA", "SCHEMA_VERSION", "ResultRow", "TheoremRow"]

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS classes (
    id             INTEGER PRIMARY KEY,
    canonical_hash TEXT NOT NULL UNIQUE,
    hypotheses     INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    labels         INTEGER NOT NULL,
    "table"        TEXT NOT NULL,
    name           TEXT
);
CREATE TABLE IF NOT EXISTS class_sources (
    class_id INTEGER NOT NULL REFERENCES classes(id),
    source   TEXT NOT NULL,
    UNIQUE (class_id, source)
);
CREATE TABLE IF NOT EXISTS runs (
    id       INTEGER PRIMARY KEY,
    started  TEXT NOT NULL,
    finished TEXT,
    command  TEXT,
    host     TEXT,
    pid      INTEGER,
    executor TEXT
);
CREATE TABLE IF NOT EXISTS results (
    class_id  INTEGER NOT NULL REFERENCES classes(id),
    dimension TEXT NOT NULL,
    value     INTEGER,
    exact     INTEGER NOT NULL,
    lower     INTEGER,
    upper     INTEGER,
    seconds   REAL,
    witness   TEXT,
    kind      TEXT,
    reason    TEXT,
    verified  INTEGER,
    run_id    INTEGER REFERENCES runs(id),
    UNIQUE (class_id, dimension)
);
CREATE TABLE IF NOT EXISTS theorems (
    class_id  INTEGER NOT NULL REFERENCES classes(id),
    position  INTEGER NOT NULL,
    source    TEXT NOT NULL,
    statement TEXT NOT NULL,
    lhs       TEXT NOT NULL,
    relation  TEXT NOT NULL,
    rhs       TEXT NOT NULL,
    exact     INTEGER NOT NULL,
    holds     TEXT NOT NULL,
    note      TEXT,
    run_id    INTEGER REFERENCES runs(id),
    UNIQUE (class_id, position)
);
CREATE TABLE IF NOT EXISTS completed (
    class_id INTEGER NOT NULL REFERENCES classes(id),
    item     TEXT NOT NULL,
    seconds  REAL,
    run_id   INTEGER REFERENCES runs(id),
    UNIQUE (class_id, item)
);
CREATE TABLE IF NOT EXISTS errors (
    class_id INTEGER NOT NULL REFERENCES classes(id),
    item     TEXT NOT NULL,
    message  TEXT NOT NULL,
    run_id   INTEGER REFERENCES runs(id)
);
CREATE INDEX IF NOT EXISTS results_dimension ON results (dimension, value);
"""

#: ``(dimension, value, exact, lower, upper, seconds, witness JSON, kind, reason, verified)``
ResultRow = tuple
#: ``(position, source, statement, lhs JSON, relation, rhs JSON, exact, holds, note)``
TheoremRow = tuple


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class SweepDB:
    """A connection to a sweep database (created with the schema when missing).

    Parameters
    ----------
    path : str or path-like
        The SQLite file.
    timeout : float
        Seconds a writer waits for another sweep's transaction before failing.

    Examples
    --------
    >>> import tempfile, os
    >>> db = SweepDB(os.path.join(tempfile.mkdtemp(), "s.db"))
    >>> db.count("classes")
    0
    >>> db.close()
    """

    def __init__(self, path: str | os.PathLike, *, timeout: float = 600.0, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        option = "--report" if read_only else "--db"
        self._option = option
        try:
            st = self.path.stat()
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise InvalidParameterError(f"{option} {self.path}: cannot open ({exc.strerror or exc})") from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InvalidParameterError(f"{option} {self.path}: is a directory; give a file name")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise InvalidParameterError(f"{option} {self.path}: is not a regular file (a device, FIFO or socket)")
        if read_only:
            if st is None:
                raise InvalidParameterError(f"{option} {self.path}: no such file")
            self._open_read_only()
            return
        if st is not None and st.st_size:
            self._refuse_foreign()
        try:
            self.conn = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise InvalidParameterError(f"--db {self.path}: cannot open ({exc})") from None
        # SQLite answers "database is locked" at once (without its busy handler) in some races between
        # connections opening one file -- switching a new file to WAL, upgrading a read lock: retry the
        # whole set-up with a growing pause until `timeout`, and say "busy" rather than "not a database".
        give_up = time.monotonic() + timeout
        pause = 0.01
        while True:
            try:
                self._set_up(timeout)
                break
            except sqlite3.OperationalError as exc:
                text = str(exc).lower()
                if ("locked" in text or "busy" in text) and time.monotonic() < give_up:
                    time.sleep(pause)
                    pause = min(2 * pause, 0.5)
                    continue
                self.conn.close()
                if "locked" in text or "busy" in text:
                    raise InvalidParameterError(f"--db {self.path}: busy: another process holds it ({exc})") from None
                if "readonly" in text or "read-only" in text or "unable to open" in text:
                    raise InvalidParameterError(
                        f"--db {self.path}: cannot be written ({exc}); make it (and its folder) writable, "
                        "or summarise it with --report"
                    ) from None
                raise InvalidParameterError(f"--db {self.path}: not a dimcalc sweep database ({exc})") from None
            except sqlite3.DatabaseError as exc:
                self.conn.close()
                raise InvalidParameterError(f"--db {self.path}: not a dimcalc sweep database ({exc})") from None

    def _sqlite_tables(self, conn: sqlite3.Connection) -> set[str]:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _check_dimcalc_tables(self, conn: sqlite3.Connection) -> None:
        """Refuse an SQLite file that is not a dimcalc sweep database (never add dimcalc's tables to it)."""
        tables = self._sqlite_tables(conn)
        ours = {"meta", "classes", "results"}
        if tables and not (
            ours <= tables and conn.execute("SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone()
        ):
            shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
            raise InvalidParameterError(
                f"{self._option} {self.path}: not a dimcalc sweep database (an SQLite database of another program, "
                f"tables {shown})"
            )
        if not tables and self.read_only:
            raise InvalidParameterError(f"{self._option} {self.path}: empty, not a dimcalc sweep database")

    def _refuse_foreign(self) -> None:
        """An existing file is opened read-only first: refused unless it is a dimcalc sweep database."""
        with open(self.path, "rb") as fh:
            head = fh.read(16)
        if head != b"SQLite format 3\x00":
            raise InvalidParameterError(
                f"--db {self.path}: not a dimcalc sweep database (not SQLite: a class file?); give a new --db file"
            )
        try:
            conn = self._connect_read_only()
        except sqlite3.Error:
            return  # let the writable connection say what is wrong
        try:
            self._check_dimcalc_tables(conn)
        except sqlite3.Error:
            pass
        finally:
            conn.close()

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection; in a folder dimcalc cannot write (no room for WAL side files), an
        immutable one (safe: nothing writes a database in a read-only folder)."""
        uri = self.path.resolve().as_uri()
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
            conn.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
            return conn
        except sqlite3.OperationalError:
            conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)
            conn.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
            return conn

    def _open_read_only(self) -> None:
        try:
            self.conn = self._connect_read_only()
            self._check_dimcalc_tables(self.conn)
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise InvalidParameterError(f"--report {self.path}: not a dimcalc sweep database ({exc})") from None
        if int(row[0]) != SCHEMA_VERSION:
            self.conn.close()
            raise InvalidParameterError(
                f"--report {self.path}: schema version {row[0]}, this dimcalc reads version {SCHEMA_VERSION}"
            )

    def _set_up(self, timeout: float) -> None:
        """WAL mode, pragmas, the schema and its version (idempotent: safe to retry)."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise InvalidParameterError(f"--db {self.path}: SQLite could not switch it to WAL mode ({mode})")
        self.conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a commit survives a process crash
        self.conn.execute("PRAGMA foreign_keys = ON")
        with self.transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                self.conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise InvalidParameterError(
                    f"--db {self.path}: schema version {row[0]}, this dimcalc writes version {SCHEMA_VERSION}"
                )

    # ------------------------------------------------------------------ plumbing
    def transaction(self) -> _Transaction:
        """``with db.transaction(): ...``: one ``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back on error)."""
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> SweepDB:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def to_pandas(self, *, bounds: bool = False) -> Any:
        """Classes x dimensions, one row per class (:func:`dimcalc.display.frames.sweep_frame`; ``pandas`` extra)."""
        from ..display.frames import sweep_frame

        return sweep_frame(self, bounds=bounds)

    def count(self, table: str) -> int:
        if table not in ("classes", "results", "theorems", "completed", "errors", "runs", "class_sources"):
            raise ValueError(table)
        return int(self.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    # ------------------------------------------------------------------ meta
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def ensure_meta(self, key: str, value: str, what: str) -> None:
        """Store ``key = value``, or refuse when the file already holds another value."""
        with self.transaction():
            old = self.get_meta(key)
            if old is None:
                self.conn.execute("INSERT INTO meta VALUES (?, ?)", (key, value))
            elif old != value:
                raise InvalidParameterError(
                    f"--db {self.path}: was swept with another {what}; use a new --db file for this one"
                )

    # ------------------------------------------------------------------ runs
    def start_run(self, command: str, executor: str) -> int:
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO runs (started, command, host, pid, executor) VALUES (?, ?, ?, ?, ?)",
                (_now(), command, socket.gethostname(), os.getpid(), executor),
            )
            assert cur.lastrowid is not None  # set by the INSERT
            return int(cur.lastrowid)

    def finish_run(self, run_id: int) -> None:
        with self.transaction():
            self.conn.execute("UPDATE runs SET finished = ? WHERE id = ?", (_now(), run_id))

    # ------------------------------------------------------------------ classes
    def add_classes(self, entries: Sequence[tuple[CanonicalClass, str | None, str]]) -> list[int]:
        """Insert classes (canonical form, name, source) in one transaction; return their ids.

        A class whose ``canonical_hash`` is already stored keeps its row (and id);
        its new source is recorded beside the old ones.
        """
        ids = []
        with self.transaction():
            for c, name, source in entries:
                table = c.table
                self.conn.execute(
                    'INSERT INTO classes (canonical_hash, hypotheses, points, labels, "table", name) '
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (canonical_hash) DO NOTHING",
                    (
                        c.canonical_hash,
                        int(table.shape[0]),
                        int(table.shape[1]),
                        c.num_labels,
                        json.dumps(np.asarray(table).tolist(), separators=(",", ":")),
                        name,
                    ),
                )
                cid = int(
                    self.conn.execute(
                        "SELECT id FROM classes WHERE canonical_hash = ?", (c.canonical_hash,)
                    ).fetchone()[0]
                )
                self.conn.execute("INSERT INTO class_sources VALUES (?, ?) ON CONFLICT DO NOTHING", (cid, source))
                ids.append(cid)
        return ids

    def class_table(self, class_id: int) -> tuple[list[list[int]], int]:
        row = self.conn.execute('SELECT "table", labels FROM classes WHERE id = ?', (class_id,)).fetchone()
        if row is None:
            raise InvalidParameterError(f"{self.path}: no class with id {class_id}")
        return json.loads(row[0]), int(row[1])

    def load_class(self, class_id: int) -> HypothesisClass:
        """The stored table as a class (witnesses in ``results`` refer to its rows and columns)."""
        row = self.conn.execute(
            'SELECT "table", labels, name, canonical_hash FROM classes WHERE id = ?', (class_id,)
        ).fetchone()
        if row is None:
            raise InvalidParameterError(f"{self.path}: no class with id {class_id}")
        return HypothesisClass(
            json.loads(row[0]),
            num_labels=int(row[1]),
            name=row[2],
            metadata={"sweep": {"class_id": class_id, "canonical_hash": row[3]}},
        )

    # ------------------------------------------------------------------ progress of a sweep
    def completed_items(
        self, class_ids: Iterable[int], items: Sequence[str], *, retry_inexact: bool = False
    ) -> dict[int, set[str]]:
        """For each class id, which of ``items`` are done (an inexact one is not, with ``retry_inexact``)."""
        wanted = set(class_ids)
        done: dict[int, set[str]] = {cid: set() for cid in wanted}
        marks = ",".join("?" * len(items))
        for cid, item in self.conn.execute(
            f"SELECT class_id, item FROM completed WHERE item IN ({marks})", tuple(items)
        ):
            if cid in done:
                done[cid].add(item)
        if retry_inexact:
            for cid, dim in self.conn.execute("SELECT class_id, dimension FROM results WHERE exact = 0"):
                if cid in done:
                    done[cid].discard(dim.split(".", 1)[0])
            for (cid,) in self.conn.execute("SELECT DISTINCT class_id FROM theorems WHERE holds = 'unknown'"):
                if cid in done:
                    done[cid].discard("theorems")
        return done

    def store_outcome(
        self,
        class_id: int,
        run_id: int,
        *,
        results: Sequence[ResultRow],
        theorems: Sequence[TheoremRow],
        completed: Sequence[tuple[str, float]],
        errors: Sequence[tuple[str, str]],
    ) -> None:
        """Store everything computed for one class in one transaction.

        An exact stored result is never replaced; an inexact one is replaced by
        a new result (a retry with more time).
        """
        with self.transaction():
            for r in results:
                self.conn.execute(
                    "INSERT INTO results (class_id, dimension, value, exact, lower, upper, seconds, witness, kind, "
                    "reason, verified, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (class_id, dimension) DO UPDATE SET value = excluded.value, exact = excluded.exact, "
                    "lower = excluded.lower, upper = excluded.upper, seconds = excluded.seconds, "
                    "witness = excluded.witness, kind = excluded.kind, reason = excluded.reason, "
                    "verified = excluded.verified, run_id = excluded.run_id WHERE results.exact = 0",
                    (class_id, *r, run_id),
                )
            if theorems:
                replace = self.conn.execute(
                    "SELECT COUNT(*) FROM theorems WHERE class_id = ? AND holds = 'unknown'", (class_id,)
                ).fetchone()[0]
                if replace:
                    self.conn.execute("DELETE FROM theorems WHERE class_id = ?", (class_id,))
                for t in theorems:
                    self.conn.execute(
                        "INSERT INTO theorems (class_id, position, source, statement, lhs, relation, rhs, exact, "
                        "holds, note, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (class_id, *t, run_id),
                    )
            for item, seconds in completed:
                self.conn.execute(
                    "INSERT INTO completed VALUES (?, ?, ?, ?) ON CONFLICT (class_id, item) DO UPDATE SET "
                    "seconds = excluded.seconds, run_id = excluded.run_id",
                    (class_id, item, seconds, run_id),
                )
            for item, message in errors:
                self.conn.execute("INSERT INTO errors VALUES (?, ?, ?, ?)", (class_id, item, message, run_id))


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.outer = False

    def __enter__(self) -> sqlite3.Connection:
        if self.conn.in_transaction:  # nested use joins the open transaction
            self.outer = True
            return self.conn
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if self.outer:
            return
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
