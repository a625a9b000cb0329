"""A minimal Redis client (RESP2 over one TCP connection), so the test bed needs no
Python package: it must tell an error the server sent (the op was refused) from a
connection that broke or timed out after the request left (the op may have run),
and a general-purpose client's retries would blur exactly that."""

import socket


class ServerError(Exception):
    """The server answered with an error reply (-ERR, -READONLY, ...)."""


class Connection:
    def __init__(self, host, port, timeout):
        self.address = (host, port)
        self.sock = socket.create_connection(self.address, timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = self.sock.makefile("rb")

    def close(self):
        try:
            self.reader.close()
            self.sock.close()
        except OSError:
            pass

    def send(self, *args):
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.sock.sendall(b"".join(parts))

    def call(self, *args):
        """Sends one command and reads its reply. Raises ServerError for an error reply,
        OSError (socket.timeout among them) when the connection fails."""
        self.send(*args)
        return self._reply()

    def _reply(self):
        line = self.reader.readline()
        if not line.endswith(b"\r\n"):
            raise ConnectionError("connection closed by the server")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise ServerError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            length = int(rest)
            if length < 0:
                return None
            data = self.reader.read(length + 2)
            if len(data) != length + 2:
                raise ConnectionError("connection closed by the server")
            return data[:-2].decode()
        if kind == b"*":
            count = int(rest)
            return None if count < 0 else [self._reply() for _ in range(count)]
        raise ConnectionError(f"unexpected reply {line!r}")
