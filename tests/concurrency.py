"""Running a function from several threads at once, for tests of thread safety."""
import threading


def in_threads(fn, args, repeat=1):
    """Calls ``fn(*a)`` for each `a` of `args`, each in a thread of its own, all at once,
    `repeat` times a thread; returns each thread's last result, in order.

    The first exception any thread raised (a failed assertion in `fn`, say) is
    raised here, once every thread has finished.

    >>> in_threads(lambda a, b: a + b, [(1, 2), (3, 4)], repeat=3)
    [3, 7]
    """
    results, errors = [None] * len(args), []

    def work(i):
        try:
            for _ in range(repeat):
                results[i] = fn(*args[i])
        except BaseException as error:  # raised in the calling thread below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(args))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
