/// `/v1/uploads` as JSON: the unfinished uploads a token may see, its own,
/// or every token's for the owner's. The uploads themselves go by the tus
/// protocol (``UploadRoutes``).
extension JSONRoutes {
    func listUploads(_ input: Operations.ListUploads.Input) async throws -> Operations.ListUploads.Output {
        let principal = try principal()
        let uploads = self.uploads
        let listed = try await blocking { uploads.list() }.filter { principal.isOwner || $0.upload.tokenID == principal.tokenID }
        let items = listed.map { status in
            Components.Schemas.UploadList.UploadsPayloadPayload(
                id: status.upload.id, token: status.upload.tokenID, filename: status.upload.filename, length: status.upload.length,
                received: status.received, created: status.upload.created, lastWrite: status.lastWrite)
        }
        return .ok(.init(headers: .init(cacheControl: "no-store"), body: .json(.init(uploads: items))))
    }
}
