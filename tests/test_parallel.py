"""Work spread over worker processes: results whole, errors with the worker's traceback,
and a run stopped early never leaves the pool waiting for the rest of a result."""

import concurrent.futures.process as futures_process
import tempfile

import pytest

from wordsalvo import parallel


def _big(i):
    return bytes([i % 256]) * 3_000_000  # far more than a pipe holds


def _small(i):
    return i * i


def _fails(i):
    if i == 3:
        raise ValueError(f"task {i} refused")
    return i


@pytest.fixture
def results_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_small_and_large_results_arrive_whole_and_leave_no_file(results_folder):
    assert sorted(parallel.map_unordered(_small, [(i,) for i in range(50)], 2)) == [i * i for i in range(50)]
    big = sorted(parallel.map_unordered(_big, [(i,) for i in range(6)], 2))
    assert big == [bytes([i]) * 3_000_000 for i in range(6)]
    assert list(results_folder.iterdir()) == []  # the large results' files (and their folder) removed


def test_a_workers_error_is_raised_here_with_its_traceback(results_folder):
    with pytest.raises(ValueError, match="task 3 refused") as info:
        list(parallel.map_unordered(_fails, [(i,) for i in range(8)], 2))
    assert "_fails" in str(info.value.__cause__)  # the worker's traceback
    assert list(results_folder.iterdir()) == []


def test_stopping_while_workers_send_large_results_leaves_no_thread_waiting(results_folder):
    """Workers ended while they wrote a large result into the pool's pipe left half a
    message there: the pool's reading thread waited for the rest for ever, and the
    interpreter (which joins that thread at exit) with it: an interrupted
    ``analyze --jobs 2`` printed its summary and never exited.  Each try stops a map
    while both workers are sending; before the fix most tries left a thread waiting."""
    for _ in range(8):
        results = parallel.map_unordered(_big, [(i,) for i in range(100)], 2)
        next(results)
        results.close()
        for thread in list(futures_process._threads_wakeups):
            thread.join(120)  # a hang is for ever: any bound far above the work tells it
            assert not thread.is_alive(), "the pool's thread still waits for a worker's result"
    assert list(results_folder.iterdir()) == []
