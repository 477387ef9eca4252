"""Long work spread over processes (this machine's or a Dask cluster's) that one Ctrl-C stops at once.

A terminal's Ctrl-C sends SIGINT to every process of its foreground group: the
parent and each worker.  Left alone, a worker of a ``ProcessPoolExecutor`` dies
with a traceback of its own, or catches the interrupt as its task's error and
goes on to the next task, while the parent, leaving its ``with`` block, waits
for every queued task to finish.  So here:

* the workers never see SIGINT (they start with it blocked, and ignore it):
  only the parent decides;
* the parent, interrupted while it waits (or stopped by its caller, or by a
  task's error), cancels what has not started, terminates the workers and lets
  the exception go on; the caller reports what finished
  (:class:`Interrupted` carries it);
* on a Dask cluster (:func:`dask_map_unordered`) the client cancels every
  future; a task already running on a worker thread finishes there, unseen;
* a worker's result larger than a pipe writes whole goes through a file
  (:func:`_returned`): a worker ended while it sends its result would leave half a
  message in the pool's result pipe, and the pool's reading thread (and the
  interpreter at exit, which joins it) would wait for the rest for ever;
* :func:`interrupts_deferred` holds a Ctrl-C back while a state that spans
  several files is written, so that a resumed run never reads half of it.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import multiprocessing
import os
import pickle
import re
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from .errors import WorkerStartError

__all__ = ["Interrupted", "map_unordered", "worker_pool", "dask_map_unordered", "dask_client", "interrupts_deferred",
           "scheduler_address", "check_scheduler"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a long run; ``partial`` is what it had finished (its caller's summary)."""

    def __init__(self, partial: Any = None):
        super().__init__()
        self.partial = partial


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the tasks that have not started and end the workers now."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        return
    # earlier versions: the executor's own table of its worker processes (shutdown forgets it)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
    pool.shutdown(wait=True)


#: tasks submitted ahead per worker: the queue is bounded, tasks are made as it drains
AHEAD = 4

#: the largest pickled result a worker sends through the pool's pipe; larger ones go
#: through a file.  With the pool's framing (its result record, ~120 bytes, and a 4-byte
#: length) the message stays within PIPE_BUF (4,096 bytes on Linux, 512 on macOS), which a
#: pipe writes whole or not at all, even when the writer is killed
PIPE_WHOLE = getattr(select, "PIPE_BUF", 512) - 256


class _RemoteTraceback(Exception):
    """A worker's traceback, the cause of its error raised here."""

    def __str__(self) -> str:
        return self.args[0]


def _run_returning(fn: Callable[..., Any], folder: str, task: tuple) -> tuple[bool, Any]:
    """In a worker: ``fn(*task)`` as ``(ok, payload)``: payload the pickled outcome when it
    is small, else the path of a file holding it (written before its name is sent, so the
    parent never reads half a file; one ended half-way is removed with the folder)."""
    try:
        outcome = (True, fn(*task), None)
    except Exception as e:  # raised again in the parent, with this traceback as its cause
        outcome = (False, e, traceback.format_exc())
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # an unpicklable result or error: say so in the parent
        data = pickle.dumps((False, RuntimeError(f"the worker's {'result' if outcome[0] else 'error'} cannot be "
                                                 f"sent back: {e!r}"), traceback.format_exc()))
    if len(data) <= PIPE_WHOLE:
        return True, data
    path = os.path.join(folder, f"{os.getpid()}-{time.monotonic_ns()}.pickle")
    with open(path, "wb") as f:
        f.write(data)
    return False, path


def _returned(sent: tuple[bool, Any]) -> Any:
    """In the parent: the result :func:`_run_returning` sent (its file read and removed),
    or its error raised."""
    inline, payload = sent
    if not inline:
        with open(payload, "rb") as f:
            data = f.read()
        os.unlink(payload)
        payload = data
    ok, value, tb = pickle.loads(payload)
    if ok:
        return value
    value.__cause__ = _RemoteTraceback(f"\n'''\n{tb}'''")
    raise value


@contextmanager
def worker_pool(jobs: int, context: str | None = None, preload: Sequence[str] = ()) -> Iterator[Any]:
    """One pool of ``jobs`` worker processes for several :func:`map_unordered` calls (leave
    training plays its games in chunks: a pool a chunk paid every worker's start again).
    Ended on leaving; a map interrupted or failed ends it at once."""
    ctx = multiprocessing.get_context(context) if context else None
    _check_main_guard((ctx or multiprocessing).get_start_method())
    if context == "forkserver" and preload:
        ctx.set_forkserver_preload(list(preload))
    with _interrupts_blocked():  # the workers (and a fork server) start with Ctrl-C blocked
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_ignore_interrupts)
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def map_unordered(fn: Callable[..., Any], tasks: Iterable[tuple], jobs: int,
                  context: str | None = None, preload: Sequence[str] = (),
                  pool: ProcessPoolExecutor | None = None, local: bool = False) -> Iterator[Any]:
    """``fn(*task)`` for every task in ``jobs`` worker processes (``context``: the
    multiprocessing start method, default the platform's), each result as it finishes.
    ``tasks`` may be a lazy iterable: at most ``AHEAD * jobs`` tasks are made and
    submitted before their results come back (the memory is bounded however many
    there are).  A task's error is raised here and stops the rest, as Ctrl-C does.
    ``preload``: modules a fork server imports once, before it forks the workers (each
    worker then starts with them loaded instead of importing them again).  ``pool``: a
    :func:`worker_pool` to use (and leave running) instead of a pool of its own.
    ``local``: this process is one of the ``jobs`` (with a pool of its own: ``jobs - 1``
    workers): it runs tasks itself whenever no worker's result is waiting, from the
    first moment on, while the workers are still starting.  Short runs then never
    wait for a start that costs more than the work (``--jobs 2`` was slower than
    ``--jobs 1`` on runs of a few seconds), and no core sits idle in the parent."""
    own = pool is None
    if own:
        ctx = multiprocessing.get_context(context) if context else None
        _check_main_guard((ctx or multiprocessing).get_start_method())
        if context == "forkserver" and preload:
            ctx.set_forkserver_preload(list(preload))
    local = local and own and jobs > 1
    workers = jobs - 1 if local else jobs
    todo = iter(tasks)
    window = max(1, AHEAD * workers)
    folder = tempfile.mkdtemp(prefix="wordsalvo-results-")  # the workers' large results
    try:
        with _interrupts_blocked():  # the workers (and a fork server) start with Ctrl-C blocked
            if own:
                pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_ignore_interrupts)
            pending = {pool.submit(_run_returning, fn, folder, task)
                       for task in itertools.islice(todo, window)}  # starts the workers
        while True:
            done = {fut for fut in pending if fut.done()}
            if local and not done:
                task = next(todo, None)
                if task is not None:
                    yield fn(*task)  # no result waiting: this process takes the next task itself
                    continue
            if not pending:
                break
            if not done:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
            pending -= done
            for fut in done:
                result = _returned(fut.result())
                for task in itertools.islice(todo, 1):
                    pending.add(pool.submit(_run_returning, fn, folder, task))
                yield result
    except BrokenProcessPool as e:
        if pool is not None:
            _stop(pool)
        raise WorkerStartError(f"a worker process stopped ({e}); if it printed that a new process was started "
                               f"before bootstrapping finished, {_GUARD}") from e
    except BaseException:  # Ctrl-C, the caller stopping early (GeneratorExit), a task's error
        if pool is not None:
            _stop(pool)
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if own:
        pool.shutdown(wait=True)


_GUARD = ("the script's top level runs again in every worker process (the 'forkserver' and 'spawn' start "
          "methods import it): call the parallel work under `if __name__ == \"__main__\":` (or pass jobs=1)")


def _check_main_guard(method: str) -> None:
    """Raise :class:`WorkerStartError` when this call comes from the top level of the main
    script outside ``if __name__ == "__main__":`` and the workers would import that script
    (start method ``spawn`` or ``forkserver``): each worker would run the call again and the
    pool would break (BrokenProcessPool) instead of saying why."""
    if method not in ("spawn", "forkserver"):
        return
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if not path or not str(path).endswith(".py"):
        return  # an interactive session, python -c, a notebook: nothing for a worker to import
    name = getattr(getattr(main, "__spec__", None), "name", None) or ""
    if name == "__main__" or name.endswith(".__main__"):
        return  # `python -m package`: multiprocessing does not import a package's __main__ again
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_code.co_name == "<module>" and frame.f_globals is vars(main)):
        frame = frame.f_back
    if frame is None:
        return  # called from a function: the script calls it when it runs, not when it is imported
    try:
        tree = ast.parse(Path(path).read_text("utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return
    line = frame.f_lineno
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_main_test(node.test) and \
                node.body[0].lineno <= line <= (node.body[-1].end_lineno or line):
            return
    raise WorkerStartError(f"{path} line {line}: {_GUARD}")


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either side)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides) and \
        any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """SIGINT blocked in this process while the block starts worker processes: a blocked
    signal stays blocked in a child (forked or exec'd), so a worker never sees a Ctrl-C, not
    even while it imports, before its initializer runs; here it is delivered on leaving."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield  # Windows: no process groups, a console's Ctrl-C is another matter
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


#: tasks in flight on a Dask cluster
DASK_AHEAD = 256
#: seconds from the start of :func:`check_scheduler` to a clear error when no Dask scheduler
#: answers at an address (nothing listening, a silent listener, another service)
CONNECT_SECONDS = 5
#: the longest scheduler address taken
ADDRESS_MAX = 300

_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\]")


def scheduler_address(address: object) -> str:
    """A Dask scheduler address as ``tcp://HOST:PORT`` (``HOST:PORT`` is taken as TCP), or
    WordSalvoError naming what was expected and what came: the one check of every command's
    ``--scheduler`` and of the library's ``scheduler=`` arguments."""
    from .errors import WordSalvoError
    from .inputs import excerpt

    expected = "expected a Dask scheduler address tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)"
    if not isinstance(address, str):
        raise WordSalvoError(f"--scheduler: {expected}, got {type(address).__name__}")
    if not address.strip():
        raise WordSalvoError(f"--scheduler: {expected}, got an empty address")
    if len(address) > ADDRESS_MAX or not address.isascii() or not address.isprintable():
        raise WordSalvoError(f"--scheduler {excerpt(address, 80)}: {expected}, got "
                             + (f"{len(address):,} characters" if len(address) > ADDRESS_MAX
                                else "characters outside printable ASCII"))
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme == "tls":
        raise WordSalvoError(f"--scheduler {address}: {expected}, got a tls:// address (wordsalvo's client is "
                             "given no TLS certificates; reach the scheduler over tcp:// on a trusted network, "
                             "e.g. through an SSH tunnel)")
    if scheme != "tcp":
        raise WordSalvoError(f"--scheduler {address}: {expected}, got the scheme {scheme[:20]}:// "
                             "(a scheduler in another process is reached over tcp://)")
    host, colon, port = rest.rpartition(":")
    if not colon or not _HOST.fullmatch(host) or not (port.isascii() and port.isdigit() and len(port) <= 5
                                                      and 1 <= int(port) <= 65535):
        raise WordSalvoError(f"--scheduler {address}: {expected}, got no HOST:PORT with a port 1..65535 "
                             f"after tcp://")
    return f"tcp://{host}:{int(port)}"


def check_scheduler(address: str, seconds: float | None = None) -> str:
    """The checked address (:func:`scheduler_address`) of a Dask scheduler that answered
    Dask's handshake there, or WordSalvoError within ``seconds`` (a little more when
    importing Dask alone takes longer): nothing listening, a listener that never
    speaks, another service (an HTTP server such as the dashboard) all end here with one
    clear message, before a command changes anything."""
    import socket

    from .errors import WordSalvoError

    start = time.monotonic()
    seconds = CONNECT_SECONDS if seconds is None else seconds
    address = scheduler_address(address)
    host, _, port = address[len("tcp://"):].rpartition(":")
    where = f"--scheduler {address}: expected a Dask scheduler there"
    try:  # nothing listening: said at once (Dask's own connect retries for its whole timeout)
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as e:
        reason = (f"no answer within {seconds:g} s" if isinstance(e, TimeoutError)
                  else f"nothing listening ({type(e).__name__}: {str(e)[:200]})")
        raise WordSalvoError(f"{where}, got {reason}") from None
    if importlib.util.find_spec("distributed") is None:
        raise WordSalvoError("--scheduler needs Dask distributed: pip install 'wordsalvo[dask]'")
    from distributed.comm import connect

    # importing Dask on a loaded machine takes a while: the handshake has at least 2 s
    left = max(min(2.0, seconds), seconds - (time.monotonic() - start))
    outcome: dict = {}

    def handshake() -> None:
        import asyncio

        async def probe() -> None:
            comm = await asyncio.wait_for(connect(address, timeout=left), left)
            await comm.close()

        try:
            asyncio.run(probe())
        except BaseException as e:  # noqa: BLE001 - reported by the caller as one line
            outcome["error"] = e

    # its own thread: an event loop of its own whatever runs in the caller's (a notebook's loop)
    thread = threading.Thread(target=handshake, name="wordsalvo-scheduler-check", daemon=True)
    thread.start()
    thread.join(left + 5)
    e = outcome.get("error")
    if thread.is_alive() or isinstance(e, TimeoutError):
        raise WordSalvoError(f"{where}, got a connection that did not answer Dask's handshake within "
                             f"{seconds:g} s (not a Dask scheduler, or a stalled one)")
    if e is not None:
        raise WordSalvoError(f"{where}, got an answer that is not Dask's protocol ({type(e).__name__}: "
                             f"{str(e)[:120]}): another service, such as the dashboard's web server "
                             "(a scheduler listens on 8786 by default, its dashboard on 8787)") from None
    return address


@contextmanager
def dask_client(scheduler: str):
    """A Dask client of ``scheduler`` once :func:`check_scheduler` has found one there (a
    context manager); one for a run of many maps (leave training's chunks) connects once."""
    from distributed import Client

    from .errors import WordSalvoError

    start = time.monotonic()
    scheduler = check_scheduler(scheduler)
    left = max(min(2.0, CONNECT_SECONDS), CONNECT_SECONDS - (time.monotonic() - start))
    try:
        client = Client(scheduler, timeout=left)
    except (OSError, TimeoutError) as e:
        raise WordSalvoError(f"--scheduler {scheduler}: expected a Dask scheduler there, got no answer within "
                             f"{CONNECT_SECONDS} s ({type(e).__name__}: {str(e)[:200]})") from None
    with client:
        yield client


def dask_map_unordered(fn: Callable[..., Any], tasks: Sequence[tuple], scheduler: str,
                       client: Any = None) -> Iterator[Any]:
    """``fn(*task)`` for every task on the Dask distributed cluster at ``scheduler``, each
    result as it finishes; Ctrl-C (or the caller stopping) cancels the rest.  ``client``: a
    :func:`dask_client` of ``scheduler`` kept across calls (else one is made for this map)."""
    from distributed import as_completed as dask_completed

    with (nullcontext(client) if client is not None else dask_client(scheduler)) as client:
        todo = iter(tasks)
        futures = [client.submit(fn, *task, pure=False) for task in itertools.islice(todo, DASK_AHEAD)]
        queue = dask_completed(futures)
        try:
            for fut in queue:  # one more task submitted as each finishes: a bounded queue
                result = fut.result()
                for task in itertools.islice(todo, 1):
                    futures.append(client.submit(fn, *task, pure=False))
                    queue.add(futures[-1])
                yield result
        except BaseException:
            with interrupts_deferred():
                client.cancel([f for f in futures if not f.done()], force=True)
            raise


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Run the block whole: a Ctrl-C during it is raised as KeyboardInterrupt after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt
