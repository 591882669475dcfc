import Foundation

/// The rules every request passes before it reaches the app: the Host header (against DNS
/// rebinding), the Origin of state-changing requests (against cross-site requests), and the
/// token when the server listens beyond loopback.
///
/// The OpenAI-compatible routes under `/v1` pass the same rules; their clients present a key as
/// `Authorization: Bearer KEY`, which may be the server's token or, when one is configured, its
/// API key (required for `/v1` even on loopback).
public struct WebSecurity: Sendable {
  /// Why a request was refused: its status and a one-line message.
  struct Refusal: Sendable, Equatable {
    /// 401 or 403.
    var status: Int
    /// What went wrong and what to do.
    var message: String
  }

  /// The address the server is bound to.
  public var boundHost: String
  /// The token a client must present, or nil on loopback.
  public var token: String?
  /// The key OpenAI clients must present on `/v1`, or nil for none beyond ``token``.
  public var apiKey: String?

  /// The cookie that carries the token after `/login`.
  public static let cookieName = "voicenotes_token"

  /// Rules for a server bound to `boundHost`, requiring `token` when it is given, and `apiKey`
  /// (or the token) on the OpenAI-compatible routes when it is given.
  public init(boundHost: String, token: String?, apiKey: String? = nil) {
    self.boundHost = boundHost
    self.token = token
    self.apiKey = apiKey
  }

  /// Whether `path` is one of the OpenAI-compatible routes.
  static func isOpenAIPath(_ path: String) -> Bool { path == "/v1" || path.hasPrefix("/v1/") }

  /// Whether `host` is an address only this machine answers to.
  public static func isLoopback(_ host: String) -> Bool {
    let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
  }

  /// Why `head` is refused, as a one-line JSON error, or nil when it may go on.
  func refusal(for head: HTTPRequest.Head) -> HTTPResponse? {
    check(head).map { .error($0.status, $0.message) }
  }

  /// Why `head` is refused, or nil when it may go on. Login requests are checked for their host
  /// only (they bring the token).
  func check(_ head: HTTPRequest.Head) -> Refusal? {
    let openAI = Self.isOpenAIPath(head.path)
    guard let host = head.header("host"), isAllowed(hostHeader: host) else {
      return Refusal(
        status: 403,
        message: openAI
          ? "this server answers only to its own address; use the base URL voicenotes serve printed, ending in /v1"
          : "this server answers only to its own address; open it by the address voicenotes serve printed")
    }
    if ["POST", "PATCH", "PUT", "DELETE"].contains(head.method) {
      let crossSite =
        head.header("origin").map { !isSameOrigin($0, host: host, secure: head.isSecure) } ?? false
        || head.header("sec-fetch-site") == "cross-site"
      if crossSite {
        return Refusal(
          status: 403,
          message: openAI
            ? "cross-site requests are refused; call the API from a program, not from another site's page"
            : "cross-site requests are refused; use the page this server serves")
      }
    }
    if openAI {
      guard token != nil || apiKey != nil else { return nil }
      if (token != nil && isAuthorized(head)) || presentsAPIKey(head) { return nil }
      let given = head.header("authorization") != nil
      return Refusal(
        status: 401,
        message: (given ? "the API key is wrong" : "this server needs an API key")
          + "; send Authorization: Bearer KEY with the key voicenotes serve was given (--api-key) or printed")
    }
    if token != nil, head.path != "/login", !isAuthorized(head) {
      return Refusal(status: 401, message: "this server needs its token; open the login link voicenotes serve printed")
    }
    return nil
  }

  /// Whether the request carries the API key as a bearer token.
  func presentsAPIKey(_ head: HTTPRequest.Head) -> Bool {
    guard let apiKey, let authorization = head.header("authorization"), authorization.hasPrefix("Bearer ") else {
      return false
    }
    return Self.constantTimeEqual(String(authorization.dropFirst(7)), apiKey)
  }

  /// Whether the Host header names this server: localhost, a loopback address, the bound
  /// address, or (when bound to every interface) any IP address, never a domain name.
  func isAllowed(hostHeader: String) -> Bool {
    let name = Self.hostName(of: hostHeader).lowercased()
    if Self.isLoopback(name) || name == boundHost.lowercased() { return true }
    if boundHost == "0.0.0.0" || boundHost == "::" { return Self.isIPAddress(name) }
    return false
  }

  /// Whether `origin` (`scheme://host:port`) is this server's own.
  func isSameOrigin(_ origin: String, host: String, secure: Bool) -> Bool {
    guard let url = URL(string: origin), let scheme = url.scheme, let originHost = url.host else { return false }
    guard scheme == (secure ? "https" : "http") else { return false }
    let port = url.port.map { ":\($0)" } ?? ""
    let bracketed = originHost.contains(":") && !originHost.hasPrefix("[") ? "[\(originHost)]" : originHost
    return (bracketed + port).lowercased() == host.lowercased()
  }

  /// Whether the request carries the token, as the cookie or as a bearer token.
  func isAuthorized(_ head: HTTPRequest.Head) -> Bool {
    guard let token else { return true }
    if let authorization = head.header("authorization"), authorization.hasPrefix("Bearer "),
      Self.constantTimeEqual(String(authorization.dropFirst(7)), token)
    {
      return true
    }
    for pair in (head.header("cookie") ?? "").split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2, parts[0] == Self.cookieName, Self.constantTimeEqual(parts[1], token) { return true }
    }
    return false
  }

  /// The host part of a Host header (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`).
  static func hostName(of header: String) -> String {
    if header.hasPrefix("[") {
      return header.firstIndex(of: "]").map { String(header[...$0]) } ?? header
    }
    return String(header.split(separator: ":", maxSplits: 1).first ?? "")
  }

  static func isIPAddress(_ name: String) -> Bool {
    let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
  }

  /// Compares without stopping at the first difference, so timing tells nothing of the token.
  static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
    let a = Array(left.utf8)
    let b = Array(right.utf8)
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  /// A new random token: 32 hexadecimal digits.
  public static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
  }
}
