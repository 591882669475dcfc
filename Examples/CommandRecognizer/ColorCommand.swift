/// What a recognized sentence asks for: a background colour, or nothing.
struct ColorCommand: Equatable {
  /// The colour's name.
  let name: String
  /// Its red, green and blue components.
  let rgb: (UInt8, UInt8, UInt8)

  static func == (lhs: ColorCommand, rhs: ColorCommand) -> Bool { lhs.name == rhs.name }

  /// The command in `text` ("Set background to blue", "I am fire"), or nil when it is none.
  init?(_ text: String) {
    let words = text.lowercased().split { !$0.isLetter }.map(String.init)
    switch words.count {
    case 4 where words.prefix(3) == ["set", "background", "to"]:
      guard let color = Self.colors[words[3]] else { return nil }
      (name, rgb) = (words[3], color)
    case 3 where words.prefix(2) == ["i", "am"]:
      switch words[2] {
      case "sea": (name, rgb) = ("blue", Self.colors["blue"]!)
      case "fire": (name, rgb) = ("orange", (230, 120, 20))
      default: return nil
      }
    default:
      return nil
    }
  }

  /// What a person can say, with what it does, for the screen and `--help`.
  static let spoken: [(phrase: String, effect: String)] =
    colors.keys.sorted().map { ("Set background to \($0)", "\($0) background") } + [
      ("I am sea", "blue background"), ("I am fire", "orange background"),
    ]

  private static let colors: [String: (UInt8, UInt8, UInt8)] = [
    "red": (200, 30, 30), "blue": (30, 70, 200), "green": (30, 150, 60), "yellow": (220, 200, 40),
  ]
}
