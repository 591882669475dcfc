import Foundation
import ModelSupport
import TestSupport
import Testing

@testable import WebServer

/// `voicenotes serve` as a person starts it, and HTTPS beyond loopback.
@Suite("voicenotes serve", .serialized)
struct ServeCommandTests {
  /// Starts `voicenotes serve` with `arguments`; returns the process and the URL it printed.
  func serve(_ arguments: [String], library: URL) throws -> (Process, String) {
    let process = Process()
    process.executableURL = Fixtures.program
    process.arguments = ["serve", "--port", "0", "--library", library.path, "--quiet"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.runWithDefaultSignals()
    var text = ""
    let deadline = Date(timeIntervalSinceNow: 30)
    while !text.contains("\n"), Date() < deadline, process.isRunning {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    return (process, text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test("serve --json prints one JSON line with the address, port and library")
  func json() throws {
    let folder = Fixtures.temporaryFolder("serve-json")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let (process, line) = try serve(["--json"], library: library)
    defer { if process.isRunning { process.terminate() } }
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    let url = try #require(object["url"] as? String)
    #expect(url.hasPrefix("http://127.0.0.1:") && !line.contains("\\/"), "\(line)")
    #expect(object["port"] as? Int == Int(port(of: url)) && object["library"] as? String == library.path)
    #expect(try HTTPTestClient(port: port(of: url)).send("GET", "/api/status").status == 200)
    process.terminate()
    process.waitUntilExit()
  }

  func port(of url: String) -> UInt16 {
    UInt16(url.split(separator: ":").last?.split(separator: "/").first ?? "") ?? 0
  }

  @Test("serve prints its loopback URL on stdout, answers, and stops cleanly on SIGTERM")
  func loopback() throws {
    let folder = Fixtures.temporaryFolder("serve")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (process, url) = try serve([], library: folder.appendingPathComponent("library"))
    defer { if process.isRunning { process.terminate() } }
    #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/"), "\(url)")
    let client = HTTPTestClient(port: port(of: url))
    #expect(try client.send("GET", "/api/status").status == 200)
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  @Test("beyond loopback: HTTPS with a certificate made on first start, and a login link with the token")
  func network() throws {
    let folder = Fixtures.temporaryFolder("serve-tls")
    defer { try? FileManager.default.removeItem(at: folder) }
    let library = folder.appendingPathComponent("library")
    let (process, url) = try serve(["--host", "0.0.0.0", "--token", "test-token-1234"], library: library)
    defer { if process.isRunning { process.terminate() } }
    #expect(url.hasPrefix("https://") && url.hasSuffix("/login?token=test-token-1234"), "\(url)")
    #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent(".server/cert.pem").path))
    let status = "https://127.0.0.1:\(port(of: url))/api/status"
    let denied = try Program.run(["curl", "-sk", "-o", "/dev/null", "-w", "%{http_code}", status])
    #expect(denied.standardOutput == "401", "\(denied.standardOutput) \(denied.standardError)")
    let allowed = try Program.run([
      "curl", "-sk", "-H", "Authorization: Bearer test-token-1234", status,
    ])
    #expect(allowed.standardOutput.contains("\"tokenRequired\":true"), "\(allowed.standardOutput)")
    // Plain HTTP to the HTTPS port gets no answer.
    let plain = try Program.run([
      "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
      status.replacingOccurrences(of: "https://", with: "http://"),
    ])
    #expect(plain.standardOutput != "200")
    process.terminate()
    process.waitUntilExit()
  }
}
