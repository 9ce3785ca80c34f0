"""A call in a forked child with a memory allowance: a native abort or a runaway costs one answer."""

from __future__ import annotations

import os
import pickle
import resource
from collections.abc import Callable
from typing import Any


class Died(Exception):
    """The child gave no answer: it ran out of its memory allowance or was ended (`str` says how)."""


def call_apart(fn: Callable[[], Any], memory_mb: int = 2048) -> Any:
    """`fn()` in a forked child that may take `memory_mb` MB more than it starts with (Linux).

    Its value comes back pickled. A child that dies (a native abort such as CaDiCaL's uncaught
    std::bad_alloc, a signal) or runs out of memory (MemoryError) raises Died here; any other
    exception in `fn` is raised again here.
    """
    from harness.run.memory import proc_status_kb, set_soft_limit

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answers through the pipe and never returns into the caller's code
        code = 0
        try:
            os.close(read)
            set_soft_limit(resource.RLIMIT_DATA, (proc_status_kb("VmData") << 10) + (memory_mb << 20))
            try:
                answer: Any = (True, fn())
            except MemoryError:
                answer = (False, f"out of memory ({memory_mb} MB more)")
            except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
                answer = (True, exc)
            with os.fdopen(write, "wb") as out:
                pickle.dump(answer, out)
        except BaseException:  # noqa: BLE001 - the parent hears of it as a child without an answer
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if data and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        answered, value = pickle.loads(data)
        if not answered:
            raise Died(value)
        if isinstance(value, Exception):
            raise value
        return value
    how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
           else f"exit status {os.WEXITSTATUS(status)}")
    raise Died(f"the child died ({how}; {memory_mb} MB more allowed)")
