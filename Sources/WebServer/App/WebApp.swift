import Foundation
import VoiceNotes

/// The web app: the page's files and the JSON API over one ``Library``, behind the security
/// rules. It holds no app logic of its own: every route is a call to the library.
public struct WebApp: HTTPHandler {
  /// Limits and facts the app is started with.
  public struct Settings: Sendable {
    /// The largest upload taken, in bytes.
    public var maximumUpload: Int64
    /// The program's version, for `/api/status`.
    public var version: String

    /// Settings with a limit of `maximumUpload` bytes.
    public init(maximumUpload: Int64 = 1 << 30, version: String) {
      self.maximumUpload = maximumUpload
      self.version = version
    }
  }

  /// The library served.
  public let library: Library
  /// The rules requests must pass.
  public let security: WebSecurity
  /// The limits.
  public let settings: Settings
  let resources: WebResources
  let broadcaster: EventBroadcaster
  let routes: APIRoutes
  let openAI: OpenAIRoutes

  /// An app serving `library` under `security`.
  public init(library: Library, security: WebSecurity, settings: Settings) {
    self.library = library
    self.security = security
    self.settings = settings
    resources = WebResources()
    broadcaster = EventBroadcaster(library: library)
    routes = APIRoutes(
      library: library, settings: settings, tokenRequired: security.token != nil,
      conversations: AskConversations(library: library))
    openAI = OpenAIRoutes(
      library: library, settings: settings,
      uploadFolder: library.configuration.folder.appendingPathComponent(".uploads", isDirectory: true))
  }

  /// Starts forwarding the library's events to connected pages.
  public func start() async {
    await broadcaster.start()
  }

  /// Folder for uploads in flight, inside the library (same file system as the audio folder).
  var uploadFolder: URL { library.configuration.folder.appendingPathComponent(".uploads", isDirectory: true) }

  /// Refuses what the security rules refuse before the body is read; takes imports as files and
  /// everything else in memory, within limits.
  public func bodyPolicy(for head: HTTPRequest.Head) -> HTTPBodyPolicy {
    if WebSecurity.isOpenAIPath(head.path) {
      if let refusal = security.check(head) {
        let code = refusal.status == 401 ? "invalid_api_key" : nil
        return .reject(OpenAIError(refusal.status, refusal.message, code: code).response.secured)
      }
      let policy = openAI.bodyPolicy(for: head)
      if case .reject(let response) = policy { return .reject(response.secured) }
      return policy
    }
    if let refusal = security.refusal(for: head) { return .reject(refusal.secured) }
    switch (head.method, head.path) {
    case ("POST", "/api/imports"):
      guard let type = head.contentType, APIRoutes.isAudioContentType(type) else {
        let name = head.query["name"].map { "\($0) is " } ?? "the file is "
        return .reject(
          HTTPResponse.error(
            415,
            "\(name)\(head.contentType ?? "of no stated type"), not audio; import a recording (WAV, FLAC, MP3, Ogg, Opus, m4a)"
          ).secured)
      }
      try? FileManager.default.createDirectory(at: uploadFolder, withIntermediateDirectories: true)
      return .file(folder: uploadFolder, limit: settings.maximumUpload)
    case ("POST", let path) where path.hasPrefix("/api/recordings/") && path.hasSuffix("/audio"):
      return .memory(limit: 4 << 20)
    default:
      return .memory(limit: 64 << 10)
    }
  }

  /// The page, a file of it, the login, the event stream or an API answer.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    await dispatch(request).secured
  }

  /// A failure of the server itself, in the error shape of the route asked for.
  public func failure(_ status: Int, _ message: String, for head: HTTPRequest.Head) -> HTTPResponse {
    WebSecurity.isOpenAIPath(head.path)
      ? OpenAIError(status, message).response.secured : HTTPResponse.error(status, message).secured
  }

  private func dispatch(_ request: HTTPRequest) async -> HTTPResponse {
    let head = request.head
    if WebSecurity.isOpenAIPath(head.path) { return await openAI.respond(to: request) }
    if head.path == "/login" { return login(head) }
    if head.path.hasPrefix("/api/") {
      if head.path == "/api/events" {
        guard head.method == "GET" else { return .error(405, "use GET for /api/events", headers: [("Allow", "GET")]) }
        return await broadcaster.connect()
      }
      return await routes.respond(to: request)
    }
    guard head.method == "GET" || head.method == "HEAD" else {
      return .error(405, "the page's files are read with GET", headers: [("Allow", "GET")])
    }
    let path =
      head.path == "/" || head.path == "/index.html" ? "index.html" : String(head.path.dropFirst("/app/".count))
    guard head.path == "/" || head.path == "/index.html" || head.path.hasPrefix("/app/"),
      let file = resources.files[path]
    else {
      return .error(404, "there is no such page; open / for the app")
    }
    var headers: [(name: String, value: String)] = [
      ("Content-Type", file.contentType), ("ETag", file.etag), ("Cache-Control", "no-cache"),
    ]
    if path == "index.html" { headers.append(("Content-Security-Policy", Self.contentSecurityPolicy)) }
    if head.header("if-none-match") == file.etag { return HTTPResponse(status: 304, headers: headers) }
    return HTTPResponse(status: 200, headers: headers, body: .data(file.data))
  }

  /// `/login?token=…`: sets the token cookie and goes to the page.
  private func login(_ head: HTTPRequest.Head) -> HTTPResponse {
    guard let token = security.token else { return HTTPResponse(status: 303, headers: [("Location", "/")]) }
    guard let given = head.query["token"], WebSecurity.constantTimeEqual(given, token) else {
      return .error(401, "that login link has the wrong token; open the link voicenotes serve printed")
    }
    let cookie =
      "\(WebSecurity.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
      + (head.isSecure ? "; Secure" : "")
    return HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", cookie)])
  }

  static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; "
    + "connect-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}

extension HTTPResponse {
  /// The response with the headers every answer carries.
  var secured: HTTPResponse {
    var response = self
    response.headers += [
      ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]
    if response.header("Cache-Control") == nil { response.headers.append(("Cache-Control", "no-store")) }
    return response
  }
}
