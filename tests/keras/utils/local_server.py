"""A local HTTP server for download tests: nothing here touches the internet."""
import functools
import http.server
import socket
import threading


class _Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        self.server.requests.append(self.path)
        super().do_GET()

    def log_message(self, *args):
        pass


class FileServer:
    """Serves the files under `root` at ``url`` and records the paths requested.

    >>> with FileServer("/tmp") as server:  # doctest: +SKIP
    ...     urllib.request.urlopen(server.url + "x.txt")
    """

    def __init__(self, root):
        self._httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
        self._httpd.requests = []
        self.url = f"http://127.0.0.1:{self._httpd.server_port}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def requests(self):
        return self._httpd.requests

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


def closed_port_url(path):
    """A URL on a local port nothing listens on, as when offline."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/{path}"
