import Photos

/// `/v1/library`: what the library is to the caller: its name, the counts
/// its grant lets it see, and the change token to read history from.
extension JSONRoutes {
    func getLibrary(_ input: Operations.GetLibrary.Input) async throws -> Operations.GetLibrary.Output {
        let (library, principal) = try await library()
        let representation = try await blocking {
            library.withCurrentLibrary {
                Components.Schemas.Library(
                    name: library.name, client: principal.client, readOnly: principal.isReadOnly,
                    counts: .init(
                        photos: PHAsset.fetchAssets(with: .image, options: nil).count,
                        videos: PHAsset.fetchAssets(with: .video, options: nil).count,
                        albums: PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count,
                        folders: PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count),
                    changeToken: library.currentChangeToken.textRepresentation)
            }
        }
        return .ok(.init(body: .json(representation)))
    }
}
