"""Memory of `voicenotes serve` under hostile load: each round opens 100 stalled connections,
sends 20 truncated 50 MB uploads and makes 480 requests from 16 threads; prints the resident
memory after each round and the audio files left behind (none should be).

Usage: python3 Benchmarks/web/load_memory.py .build/debug/voicenotes   (loopback only)
"""
import socket, subprocess, sys, threading, time, os, re, http.client
prog = sys.argv[1]
import tempfile
lib = os.path.join(tempfile.mkdtemp(prefix="voicenotes-load-"), "library")
p = subprocess.Popen([prog, "serve", "--port", "0", "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
url = p.stdout.readline().strip()
port = int(re.search(r":(\d+)/", url).group(1))
def rss():
    return int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{p.pid}/status").read()).group(1))
def get(path="/api/notes?limit=5"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30); c.request("GET", path, headers={"Host": f"127.0.0.1:{port}"}); r = c.getresponse(); r.read(); c.close(); return r.status
time.sleep(1); get(); base = rss()
peaks = []
for round in range(5):
    stalled = []
    for _ in range(100):
        s = socket.create_connection(("127.0.0.1", port)); s.send(b"GET /api/status HTTP/1.1\r\nHost: x\r\nX-A: "); stalled.append(s)
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", port))
        s.send(f"POST /api/imports?name=a.wav HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: audio/wav\r\nContent-Length: 50000000\r\n\r\n".encode() + b"\0" * 2_000_000); s.close()
    statuses = []
    def worker():
        for _ in range(30):
            try: statuses.append(get())
            except Exception as e: statuses.append(str(type(e).__name__))
    ts = [threading.Thread(target=worker) for _ in range(16)]; [t.start() for t in ts]; [t.join() for t in ts]
    for s in stalled: s.close()
    time.sleep(1)
    peaks.append(rss())
    print(f"round {round}: rss {peaks[-1]/1024:.1f} MB (start {base/1024:.1f} MB); ok {statuses.count(200)}/{len(statuses)}", flush=True)
left = [n for n in os.listdir(lib + "/audio")] if os.path.isdir(lib + "/audio") else []
print("audio files left:", left)
p.terminate(); p.wait()
