extension String {
  /// The text with control characters (line breaks, tabs, the escape that starts a terminal
  /// sequence) and the Unicode line and paragraph separators replaced by spaces: one line that
  /// cannot move a terminal's cursor or break a list.
  public var withControlCharactersAsSpaces: String {
    String(
      String.UnicodeScalarView(
        unicodeScalars.map { scalar in
          scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar
        }))
  }
}
