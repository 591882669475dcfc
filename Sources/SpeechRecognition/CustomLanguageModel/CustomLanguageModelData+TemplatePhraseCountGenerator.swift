import Foundation
import Synchronization

extension CustomLanguageModelData {
  /// Produces phrase counts from templates such as `"Set background to <color>"`, where each
  /// `<class>` slot stands for every value of a class defined with ``define(className:values:)``.
  ///
  /// A template's count is the total for all of its expansions, split evenly across them (the first
  /// expansions take the remainder; when the count is smaller than the number of expansions, each
  /// expansion still gets 1). Class values may themselves contain slots of other classes.
  public final class TemplatePhraseCountGenerator: Sendable, DataInsertable {
    private let state = Mutex(TemplateGroup())

    /// Creates a generator with no classes and no templates.
    public init() {}

    /// Defines (or redefines) the class `className`, used as `<className>` in templates.
    public func define(className: String, values: [String]) {
      state.withLock { $0.classes[className] = values }
    }

    /// Adds a template whose `<class>` slots are expanded; `count` is the total for all expansions.
    public func insert(template: String, count: Int) {
      state.withLock { $0.templates.append(Template(template, count: count)) }
    }

    /// The templates added so far, in order.
    public var templates: [Template] { state.withLock { $0.templates } }

    /// The classes defined so far.
    public var templateClasses: [String: [String]] { state.withLock { $0.classes } }

    /// Every phrase the templates expand to, with its share of the template's count.
    ///
    /// Throws ``CustomLanguageModelError/undefinedTemplateClassName(className:template:)`` when a
    /// template names a class that is not defined.
    public func phraseCounts() throws -> [PhraseCount] {
      let group = templateGroup
      let expander = TemplateExpander(classes: group.classes)
      return try group.templates.flatMap { try expander.phraseCounts(for: $0) }
    }

    /// Adds these templates and classes to `data` (the result builder calls this).
    public func insert(data: CustomLanguageModelData) {
      data.insert(phraseCountGenerator: self)
    }

    /// The classes and templates as one exportable group.
    var templateGroup: TemplateGroup { state.withLock { $0 } }
  }
}
