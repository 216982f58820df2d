import hashlib, base64
print(hashlib.sha256(b"hello").hexdigest())
print(hashlib.md5("abc".encode()).hexdigest())
print(base64.b64encode(b"hi there").decode())
print(base64.b64decode("aGkgdGhlcmU=").decode())
