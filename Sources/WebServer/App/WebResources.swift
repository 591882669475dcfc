import Foundation

/// The page's files (HTML, CSS, JavaScript modules), built into the program as resources and
/// read once at start, each with its media type and a validator for caching.
struct WebResources: Sendable {
  struct File: Sendable {
    var data: Data
    var contentType: String
    var etag: String
  }

  /// Files by their path under `/app/` (`js/app.js`); `index.html` is the page itself.
  let files: [String: File]

  /// Reads every file under the bundled `web` folder.
  init() {
    var files: [String: File] = [:]
    if let root = Bundle.module.url(forResource: "web", withExtension: nil),
      let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    {
      let prefix = root.standardizedFileURL.path + "/"
      for case let url as URL in walker {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
          let data = try? Data(contentsOf: url)
        else { continue }
        let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        files[path] = File(
          data: data, contentType: Self.contentType(of: url.pathExtension), etag: "\"\(String(hash, radix: 16))\"")
      }
    }
    self.files = files
  }

  static func contentType(of fileExtension: String) -> String {
    switch fileExtension.lowercased() {
    case "html": "text/html; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "js", "mjs": "text/javascript; charset=utf-8"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "json": "application/json; charset=utf-8"
    case "webmanifest": "application/manifest+json"
    default: "application/octet-stream"
    }
  }
}
