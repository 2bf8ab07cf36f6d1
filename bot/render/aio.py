"""Drawing off the event loop: pictures are rendered in a small thread pool so the bot keeps answering
while a board or an animation is drawn.

Threads rather than processes: the renderers' inputs (public views, events) would have to be pickled
to a process, and Pillow releases the interpreter lock while it encodes, so the loop's thread keeps
running. Two workers: the machine's pictures never queue behind one long animation.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

WORKERS = 2
_executor: ThreadPoolExecutor | None = None


def executor() -> ThreadPoolExecutor:
    """The renderers' thread pool, made on first use."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="render")
    return _executor


async def off_loop(func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``func(*args, **kwargs)`` run in the render pool; the event loop keeps serving meanwhile."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), functools.partial(func, *args, **kwargs))
