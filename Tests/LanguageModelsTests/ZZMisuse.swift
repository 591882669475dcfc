import LanguageModels

@Generable
struct Misuse {
  @Guide(.count(3))
  var title: String
  @Guide(.range(1...3))
  var names: [String]
}
