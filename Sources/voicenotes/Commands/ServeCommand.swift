import CommandLineParsing
import Foundation
import LanguageModels
import ModelSupport
import SpeechRecognition
import VoiceNotes
import WebServer

/// `voicenotes serve`: the web app, on this machine by default.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "serve",
    abstract: "Serve the voice-notes app to a browser: record, import, read, listen and search.",
    discussion: """
      Prints the app's address on standard output (one line; with --json, one JSON object with
      url, urls, port and library) and keeps working on unfinished notes in the background. Only
      this machine can connect unless --host is given; then a token is required (printed, or
      --token) and HTTPS is served with a self-signed certificate made on first start (or
      --tls-cert and --tls-key), so a phone on the same network can record. The command line
      keeps working on the same library meanwhile. Stop with Ctrl-C.

      The same address also answers OpenAI's API under /v1 (models, chat completions with
      streaming, JSON schemas and tools, audio transcriptions) with the local models, for any
      OpenAI client: base URL http://127.0.0.1:8765/v1. With --api-key, /v1 requires
      Authorization: Bearer KEY (the token works too beyond loopback).
      """,
    options: [
      port, host, openBrowser, token, apiKey, tlsCertificate, tlsKey, maximumUpload, speechModel, liveModel,
      languageModel,
      OutputOptions.json, quiet, LibraryOption.option,
    ],
    examples: [
      Example("voicenotes serve --open", "Serve on http://127.0.0.1:8765/ and open it in the browser."),
      Example("voicenotes serve --host 0.0.0.0", "Serve to the local network over HTTPS, with a token."),
    ])

  static let port = ModelOptions.integer(
    "port", short: "p", value: "number", help: "The port (default 8765; 0 picks a free one).", range: 0...65535,
    example: 8765)
  static let host = Option<String>(
    "host", value: "address", help: "The address to listen on (default 127.0.0.1; 0.0.0.0 for every network).")
  static let openBrowser = Flag("open", help: "Open the app in the default browser.")
  static let token = Option<String>(
    "token", value: "text", help: "The token clients must present beyond loopback (default: a new random one).")
  static let apiKey = Option<String>(
    "api-key", value: "text", help: "A key OpenAI clients must send to /v1 (Authorization: Bearer KEY).")
  static let tlsCertificate = Option<String>(
    "tls-cert", value: "file", help: "PEM certificate for HTTPS (with --tls-key).")
  static let tlsKey = Option<String>("tls-key", value: "file", help: "PEM private key for HTTPS (with --tls-cert).")
  static let maximumUpload = ModelOptions.integer(
    "max-upload-mb", value: "number", help: "The largest import accepted, in MB (default 1024).",
    range: 1...1_048_576, example: 1024)
  static let speechModel = ModelOptions.speech("speech-model", purpose: "Speech model for notes")
  static let liveModel = ModelOptions.speech("live-model", purpose: "Speech model for live transcripts")
  static let languageModel = ModelOptions.language("language-model", purpose: "Language model for analysis")
  static let quiet = Flag("quiet", short: "q", help: "Log nothing but errors.")

  let port: UInt16
  let host: String
  let openBrowser: Bool
  let token: String?
  let apiKey: String?
  let tls: (certificate: URL, key: URL)?
  let maximumUpload: Int64
  let libraryConfiguration: LibraryConfiguration
  let json: Bool
  let quiet: Bool

  init(_ input: ParsedInput) throws(UsageError) {
    port = UInt16(try input.value(Self.port) ?? 8765)
    host = try input.value(Self.host) ?? "127.0.0.1"
    openBrowser = input.isSet(Self.openBrowser)
    token = try input.value(Self.token)
    if let token, token.count < 8 { throw input.error("the token is too short; give at least 8 characters") }
    apiKey = try input.value(Self.apiKey)
    if let apiKey, apiKey.count < 8 || apiKey.contains(where: \.isWhitespace) {
      throw input.error("the API key must be at least 8 characters without spaces")
    }
    switch (try input.value(Self.tlsCertificate), try input.value(Self.tlsKey)) {
    case (nil, nil): tls = nil
    case (let certificate?, let key?):
      tls = (URL(fileURLWithPath: certificate), URL(fileURLWithPath: key))
    default: throw input.error("give --tls-cert and --tls-key together")
    }
    maximumUpload = (try input.value(Self.maximumUpload) ?? 1024) << 20
    var configuration = LibraryConfiguration(folder: try LibraryOption.url(from: input))
    if let model = try input.value(Self.speechModel) { configuration.speechModel = model }
    if let model = try input.value(Self.liveModel) { configuration.liveModel = model }
    if let model = try input.value(Self.languageModel) { configuration.languageModel = model }
    libraryConfiguration = configuration
    json = input.isSet(OutputOptions.json)
    quiet = input.isSet(Self.quiet)
  }

  func run() async throws {
    var configuration = try LibraryOption.configuration(libraryConfiguration.folder)
    configuration.speechModel = libraryConfiguration.speechModel
    configuration.liveModel = libraryConfiguration.liveModel
    configuration.languageModel = libraryConfiguration.languageModel
    let library = try await Library.open(configuration)
    let isLoopback = WebSecurity.isLoopback(host)
    let token = isLoopback ? nil : (self.token ?? WebSecurity.makeToken())
    var certificate: TLSCertificate?
    if let tls {
      certificate = try TLSCertificate.load(certificate: tls.certificate, key: tls.key)
    } else if !isLoopback {
      let folder = libraryConfiguration.folder.appendingPathComponent(".server", isDirectory: true)
      certificate = try TLSCertificate.selfSigned(in: folder, hosts: ["localhost", "127.0.0.1"] + Self.addresses(host))
    }
    let app = WebApp(
      library: library, security: WebSecurity(boundHost: host, token: token, apiKey: apiKey),
      settings: WebApp.Settings(maximumUpload: maximumUpload, version: VoiceNotesCommand.version))
    let server = HTTPServer(handler: app)
    try server.start(host: host, port: port, tls: certificate.map { ($0.certificate, $0.key) })
    await app.start()
    await library.startWorker()

    let scheme = certificate == nil ? "http" : "https"
    let shownHost = host.contains(":") ? "[\(host)]" : host
    let urls = (host == "0.0.0.0" || host == "::" ? Self.addresses(host) : [shownHost]).map { address in
      "\(scheme)://\(address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address):\(server.port)/"
        + (token.map { "login?token=\($0)" } ?? "")
    }
    let address = urls.first ?? "\(scheme)://\(shownHost):\(server.port)/"
    if json {
      struct Serving: Encodable {
        var url: String
        var urls: [String]
        var port: Int
        var library: String
      }
      // One line, so a script can read it while the server runs.
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let serving = Serving(
        url: address, urls: urls, port: Int(server.port), library: libraryConfiguration.folder.path)
      print(String(decoding: try encoder.encode(serving), as: UTF8.self))
    } else {
      print(address)
    }
    fflush(nil)
    if !quiet {
      for url in urls.dropFirst() { ProgressReporter.write("also at \(url)\n") }
      ProgressReporter.write(
        "serving \(libraryConfiguration.folder.path) (Ctrl-C stops)"
          + (library.languageModelExplanation.map { "; \($0)" } ?? "") + "\n")
    }
    if openBrowser, let url = urls.first { Self.openInBrowser(url) }

    await Self.waitForStopSignal()
    await library.finishAllRecordings()
    server.stop()
    if let busy = library.noteInProgress {
      // Every step is saved as it ends, so stopping mid-step loses nothing: the next start redoes it.
      if !quiet { ProgressReporter.write("stopped; note \(busy.prefix(8)) resumes on the next start\n") }
      fflush(nil)
      _exit(0)
    }
    await library.stopWorker()
  }

  /// Waits for SIGINT or SIGTERM.
  private static func waitForStopSignal() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = StopOnce(continuation)
      for number in [SIGINT, SIGTERM] {
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { once.resume() }
        source.resume()
        once.keep(source)
      }
    }
  }

  /// This machine's IPv4 addresses other than loopback, for the URLs printed when listening on
  /// every interface; the given host otherwise.
  static func addresses(_ host: String) -> [String] {
    guard host == "0.0.0.0" || host == "::" else { return [host] }
    var found: [String] = []
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return ["127.0.0.1"] }
    defer { freeifaddrs(list) }
    var cursor: UnsafeMutablePointer<ifaddrs>? = first
    while let entry = cursor {
      defer { cursor = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
        var value = ipv4.pointee.sin_addr
        _ = inet_ntop(AF_INET, &value, &text, socklen_t(INET_ADDRSTRLEN))
      }
      let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !name.hasPrefix("127."), !found.contains(name) { found.append(name) }
    }
    return found.isEmpty ? ["127.0.0.1"] : found
  }

  private static func openInBrowser(_ url: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", url]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    if (try? process.runWithDefaultSignals()) == nil {
      ProgressReporter.write("voicenotes: could not open a browser (xdg-open); open \(url) yourself\n")
    }
  }
}

/// Resumes a continuation once, whichever signal comes first, and keeps the signal sources alive.
private final class StopOnce: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Never>?
  private var sources: [any DispatchSourceSignal] = []

  init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

  func keep(_ source: any DispatchSourceSignal) {
    lock.lock()
    sources.append(source)
    lock.unlock()
  }

  func resume() {
    lock.lock()
    let pending = continuation
    continuation = nil
    lock.unlock()
    pending?.resume()
  }
}
