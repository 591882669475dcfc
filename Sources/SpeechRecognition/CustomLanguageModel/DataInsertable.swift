import Foundation

/// Something the ``CustomLanguageModelData`` result builder can add to the data: a phrase count, a
/// custom pronunciation, a set of templates, or a group of those.
public protocol DataInsertable {
  /// Adds this item's phrases, templates or pronunciations to `data`.
  func insert(data: CustomLanguageModelData)
}

/// Several items of a result-builder block, inserted in order.
struct CompoundDataInsertable: DataInsertable {
  let components: [any DataInsertable]

  func insert(data: CustomLanguageModelData) {
    for component in components {
      component.insert(data: data)
    }
  }
}
