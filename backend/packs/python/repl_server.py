# Vis Python REPL server (the line protocol of backend/packs/linerepl): one
# JSON request per stdin line, one JSON response per line on the protocol
# stream (the original stdout; fd 1 is pointed at stderr so stray writes
# cannot corrupt the protocol).
#   {"id": n, "code": "..."}  -> {"id", "ok", "out", "err", "value", "data", "type", "exc"}
#   {"id": n, "op": "ping"}   -> {"id", "ok": true, "value": "pong"}
# A request's "id" is echoed in its response, so a stale answer is never
# taken for the next one ("timeout_ms" is ignored: Vis interrupts).
# Globals persist across requests. The last top-level expression's value is
# returned as repr (value) and as JSON-safe data (ints stay JSON integers,
# exact at any size; floats always carry a "." or an exponent, which is how
# Vis tells them apart). An exception returns its
# type and traceback. SIGINT (sent by Vis on a timeout) interrupts the
# running evaluation with KeyboardInterrupt; the server stays usable.
import ast
import io
import json
import linecache
import os
import select
import signal
import sys
import traceback

_proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
os.dup2(2, 1)
sys.stdin = io.StringIO("")  # requests are read from fd 0 (_read_request)
_globals = {"__name__": "__main__", "__builtins__": __builtins__}
_VIS_SERVER = True
_MAX_ITEMS = 1000
_MAX_DEPTH = 6


def _opaque(v):
    d = {"__type__": type(v).__module__ + "." + type(v).__qualname__, "__opaque__": True}
    try:
        d["__repr__"] = repr(v)[:2000]
    except Exception as e:  # noqa: BLE001
        d["__repr__"] = "<repr failed: %s>" % e
    try:
        d["__attrs__"] = [a for a in dir(v) if not a.startswith("_")][:50]
    except Exception:  # noqa: BLE001
        pass
    return d


def _data(v, depth=0):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return repr(v)
        return v
    if depth >= _MAX_DEPTH:
        return _opaque(v)
    if isinstance(v, dict):
        out = {}
        for i, (k, x) in enumerate(v.items()):
            if i >= _MAX_ITEMS:
                out["__truncated__"] = len(v)
                break
            out[k if isinstance(k, str) else repr(k)] = _data(x, depth + 1)
        return out
    if isinstance(v, tuple) and callable(getattr(v, "_asdict", None)):
        return _data(dict(v._asdict()), depth + 1)
    if isinstance(v, (list, tuple, set, frozenset)):
        items = list(v) if not isinstance(v, (set, frozenset)) else sorted(v, key=repr)
        out = [_data(x, depth + 1) for x in items[:_MAX_ITEMS]]
        if len(items) > _MAX_ITEMS:
            out.append({"__truncated__": len(items)})
        return out
    if isinstance(v, (bytes, bytearray)):
        return repr(bytes(v[:_MAX_ITEMS]))
    for conv in ("_asdict", "tolist", "to_dict"):
        f = getattr(v, conv, None)
        if callable(f):
            try:
                return _data(f(), depth + 1)
            except Exception:  # noqa: BLE001
                pass
    d = getattr(v, "__dict__", None)
    if isinstance(d, dict) and not callable(v):
        out = {"__type__": type(v).__qualname__}
        for k, x in list(d.items())[:_MAX_ITEMS]:
            if not k.startswith("_"):
                out[k] = _data(x, depth + 1)
        return out
    return _opaque(v)


def _eval(code, rid):
    name = "<repl-%s>" % rid
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    out, err = io.StringIO(), io.StringIO()
    resp = {"ok": True, "out": "", "err": "", "value": None, "data": None, "type": None, "exc": None}
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        tree = ast.parse(code, name, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        if tree.body:
            exec(compile(tree, name, "exec"), _globals)
        if last is not None:
            v = eval(compile(last, name, "eval"), _globals)
            if v is not None:
                _globals["_"] = v
                resp["value"] = repr(v)
                resp["data"] = _data(v)
                resp["type"] = type(v).__qualname__
    except BaseException as e:  # noqa: BLE001  (KeyboardInterrupt too: the REPL stays)
        if isinstance(e, SystemExit):
            resp["exc"] = "SystemExit ignored: the REPL keeps running"
        else:
            tb = e.__traceback__
            while tb is not None and tb.tb_frame.f_globals.get("_VIS_SERVER") is True:
                tb = tb.tb_next  # hide the server's own frames
            resp["exc"] = "".join(traceback.format_exception(type(e), e, tb))
        resp["ok"] = False
        resp["type"] = type(e).__name__
    finally:
        sys.stdout, sys.stderr = old_out, old_err
    resp["out"], resp["err"] = out.getvalue(), err.getvalue()
    return resp


def _send(resp):
    try:
        line = json.dumps(resp)
    except Exception as e:  # noqa: BLE001
        resp["data"] = None
        resp["err"] = (resp.get("err") or "") + "\n(data not serialisable: %s)" % e
        line = json.dumps(resp, default=repr)
    _proto.write(line + "\n")
    _proto.flush()


# Between evaluations SIGINT does not raise: _idle_sigint decides whose it
# is. It came late (its evaluation had answered) and is dropped, unless a
# request is in hand or on its way in: Vis writes a request before its
# timeout can pass, so the interrupt is that request's, which a busy machine
# had not let the server read yet; it is answered as interrupted rather
# than run with no bound. The read buffer is filled by os.readv before the
# handler can run, so a request read a moment before the signal is seen.
_inbuf = b""  # read, not yet taken
_rbuf = bytearray(65536)  # _rbuf[0] != 0: bytes read, not yet in _inbuf (requests are JSON: no NUL)
_in_hand = False  # a request taken and not yet evaluated
_early = False  # an interrupt came for the request in hand
_eval_handler = signal.default_int_handler  # SIGINT's handler while evaluating


def _idle_sigint(signum, frame):
    global _early
    if _in_hand or _inbuf or _rbuf[0] != 0 or select.select([0], [], [], 0)[0]:
        _early = True


def _read_request():
    """The next request line (bytes), None at EOF."""
    global _inbuf, _in_hand
    while b"\n" not in _inbuf:
        n = os.readv(0, [_rbuf])  # a signal loses no bytes: the handler does not raise
        if n == 0:
            return None
        _inbuf += bytes(_rbuf[:n])
        _rbuf[0] = 0
    _in_hand = True
    line, _, _inbuf = _inbuf.partition(b"\n")
    return line


def main():
    global _in_hand, _early, _eval_handler
    signal.signal(signal.SIGINT, _idle_sigint)
    while True:
        line = _read_request()
        if line is None:
            return
        line = line.strip()
        if not line:
            _in_hand = _early = False
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            _in_hand = _early = False
            _send({"ok": False, "type": "ProtocolError", "exc": str(e)})
            continue
        rid = req.get("id")
        try:
            signal.signal(signal.SIGINT, _eval_handler)
            if _early:
                raise KeyboardInterrupt
            if req.get("op") == "ping":
                resp = {"ok": True, "value": "pong"}
            else:
                resp = _eval(req.get("code", ""), rid)
        except KeyboardInterrupt:
            resp = {"ok": False, "type": "KeyboardInterrupt", "exc": "interrupted"}
        finally:
            prev = signal.signal(signal.SIGINT, _idle_sigint)
            _in_hand = _early = False  # from here an interrupt is late
        if prev is not _idle_sigint:
            _eval_handler = prev  # the program's own choice (SIG_IGN, a handler) holds for the next
        resp["id"] = rid
        _send(resp)


main()
