import Foundation
import ModelSupport

/// A certificate and private key in PEM, for serving HTTPS beyond loopback (browsers allow the
/// microphone only on localhost or a secure origin, so a phone on the network needs HTTPS).
public struct TLSCertificate: Sendable {
  /// The certificate, PEM.
  public var certificate: String
  /// The private key, PEM.
  public var key: String

  /// Reads a certificate and key from files given by the person.
  ///
  /// - Throws: ``TLSCertificateError/unreadable(path:)`` when either cannot be read as PEM.
  public static func load(certificate: URL, key: URL) throws -> TLSCertificate {
    guard let pem = try? String(contentsOf: certificate, encoding: .utf8), pem.contains("-----BEGIN CERTIFICATE") else {
      throw TLSCertificateError.unreadable(path: certificate.path)
    }
    guard let keyPEM = try? String(contentsOf: key, encoding: .utf8), keyPEM.contains("PRIVATE KEY") else {
      throw TLSCertificateError.unreadable(path: key.path)
    }
    return TLSCertificate(certificate: pem, key: keyPEM)
  }

  /// The self-signed certificate kept in `folder` (`cert.pem`, `key.pem`), made with `openssl`
  /// on first use for `hosts` (names and addresses the certificate is valid for).
  public static func selfSigned(in folder: URL, hosts: [String]) throws -> TLSCertificate {
    let certificate = folder.appendingPathComponent("cert.pem")
    let key = folder.appendingPathComponent("key.pem")
    if let existing = try? load(certificate: certificate, key: key) { return existing }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let names = hosts.map { host in
      host.allSatisfy({ $0.isNumber || $0 == "." }) || host.contains(":") ? "IP:\(host)" : "DNS:\(host)"
    }
    let partialKey = folder.appendingPathComponent(".key.pem.partial")
    let partialCertificate = folder.appendingPathComponent(".cert.pem.partial")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "825",
      "-subj", "/CN=VoiceNotes", "-addext", "subjectAltName=\(names.joined(separator: ","))",
      "-keyout", partialKey.path, "-out", partialCertificate.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.runWithDefaultSignals()
      process.waitUntilExit()
    } catch {
      throw TLSCertificateError.cannotCreate(detail: "openssl could not run (\(error.localizedDescription))")
    }
    guard process.terminationStatus == 0 else {
      throw TLSCertificateError.cannotCreate(detail: "openssl exited with status \(process.terminationStatus)")
    }
    chmod(partialKey.path, 0o600)
    do {
      try FileReplacement.move(partialKey, over: key)
      try FileReplacement.move(partialCertificate, over: certificate)
    } catch {
      throw TLSCertificateError.cannotCreate(detail: error.localizedDescription)
    }
    return try load(certificate: certificate, key: key)
  }
}

/// Why HTTPS could not be set up.
public enum TLSCertificateError: Error, LocalizedError, Equatable {
  /// A certificate or key file is missing or not PEM.
  case unreadable(path: String)
  /// The self-signed certificate could not be made.
  case cannotCreate(detail: String)

  /// A one-line message that says what to do.
  public var errorDescription: String? {
    switch self {
    case .unreadable(let path):
      "\(path): not a readable PEM certificate or key; give the files with --tls-cert and --tls-key"
    case .cannotCreate(let detail):
      "could not make a certificate for HTTPS (\(detail)); install openssl or give --tls-cert and --tls-key"
    }
  }
}
