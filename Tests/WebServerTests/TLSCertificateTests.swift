import Foundation
import Testing
import WebServer

/// The self-signed certificate `serve --host` makes and keeps.
@Suite("Self-signed certificate")
struct TLSCertificateTests {
  @Test("a damaged certificate and key are replaced by a new pair, which is then kept")
  func damagedPairIsReplaced() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a certificate".utf8).write(to: folder.appendingPathComponent("cert.pem"))
    try Data("not a key".utf8).write(to: folder.appendingPathComponent("key.pem"))
    let made = try TLSCertificate.selfSigned(in: folder, hosts: ["127.0.0.1", "voicenotes.local"])
    #expect(made.certificate.hasPrefix("-----BEGIN CERTIFICATE-----"))
    #expect(made.key.contains("PRIVATE KEY"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["cert.pem", "key.pem"], "partial files left: \(names)")
    let again = try TLSCertificate.selfSigned(in: folder, hosts: ["127.0.0.1"])
    #expect(again.certificate == made.certificate && again.key == made.key)
  }
}
