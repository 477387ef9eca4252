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
* :func:`interrupts_deferred` holds a Ctrl-C back while a state that spans
  several files is written, so that a resumed run never reads half of it.
"""

from __future__ import annotations

import ast
import itertools
import multiprocessing
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .errors import WorkerStartError

__all__ = ["Interrupted", "map_unordered", "dask_map_unordered", "interrupts_deferred"]


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


def map_unordered(fn: Callable[..., Any], tasks: Iterable[tuple], jobs: int,
                  context: str | None = None) -> Iterator[Any]:
    """``fn(*task)`` for every task in ``jobs`` worker processes (``context``: the
    multiprocessing start method, default the platform's), each result as it finishes.
    ``tasks`` may be a lazy iterable: at most ``AHEAD * jobs`` tasks are made and
    submitted before their results come back (the memory is bounded however many
    there are).  A task's error is raised here and stops the rest, as Ctrl-C does."""
    ctx = multiprocessing.get_context(context) if context else None
    _check_main_guard((ctx or multiprocessing).get_start_method())
    pool = None
    todo = iter(tasks)
    window = max(1, AHEAD * jobs)
    try:
        with _interrupts_blocked():  # the workers (and a fork server) start with Ctrl-C blocked
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_ignore_interrupts)
            pending = {pool.submit(fn, *task) for task in itertools.islice(todo, window)}  # starts the workers
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                result = fut.result()
                for task in itertools.islice(todo, 1):
                    pending.add(pool.submit(fn, *task))
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
#: seconds to wait for a Dask scheduler before a clear error
CONNECT_SECONDS = 5


@contextmanager
def _client(scheduler: str):
    """A Dask client of ``scheduler``, or WordSalvoError within :data:`CONNECT_SECONDS`
    when none answers there."""
    from distributed import Client

    from .errors import WordSalvoError

    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as e:
        raise WordSalvoError(f"--scheduler {scheduler}: expected a Dask scheduler there, got no answer within "
                             f"{CONNECT_SECONDS} s ({type(e).__name__}: {str(e)[:200]})") from None
    with client:
        yield client


def dask_map_unordered(fn: Callable[..., Any], tasks: Sequence[tuple], scheduler: str) -> Iterator[Any]:
    """``fn(*task)`` for every task on the Dask distributed cluster at ``scheduler``, each
    result as it finishes; Ctrl-C (or the caller stopping) cancels the rest."""
    from distributed import as_completed as dask_completed

    with _client(scheduler) as client:
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
