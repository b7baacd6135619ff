/// The OpenAPI 3.1 description of `/v1`, served at `/v1/openapi.json` and
/// checked against the running server by schemathesis in `script/test`.
/// Edit it with the routes it describes.
enum OpenAPIDocument {
    static let json = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "OpenPhotoKit",
  "version": "1",
  "description": "A PhotoKit library over HTTP. Every request needs a bearer token (photos token create) or a browser session; the token's client grant decides what it sees and changes. Errors are application/problem+json."
 },
 "servers": [
  {
   "url": "/"
  }
 ],
 "security": [
  {
   "bearer": []
  },
  {
   "session": []
  }
 ],
 "components": {
  "securitySchemes": {
   "bearer": {
    "type": "http",
    "scheme": "bearer"
   },
   "session": {
    "type": "apiKey",
    "in": "cookie",
    "name": "opk_session"
   }
  },
  "schemas": {
   "Problem": {
    "type": "object",
    "required": [
     "type",
     "title",
     "status",
     "detail"
    ],
    "properties": {
     "type": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "status": {
      "type": "integer"
     },
     "detail": {
      "type": "string"
     },
     "code": {
      "type": "integer",
      "description": "PHPhotosError.Code raw value"
     },
     "codeName": {
      "type": "string"
     },
     "password": {
      "type": "string",
      "enum": [
       "required"
      ],
      "description": "A share link's sign-in that needs its password"
     }
    }
   },
   "Library": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "name",
     "readOnly",
     "counts",
     "changeToken"
    ],
    "properties": {
     "name": {
      "type": "string"
     },
     "client": {
      "type": "string"
     },
     "readOnly": {
      "type": "boolean"
     },
     "counts": {
      "type": "object",
      "additionalProperties": false,
      "required": [
       "photos",
       "videos",
       "albums",
       "folders"
      ],
      "properties": {
       "photos": {
        "type": "integer",
        "minimum": 0
       },
       "videos": {
        "type": "integer",
        "minimum": 0
       },
       "albums": {
        "type": "integer",
        "minimum": 0
       },
       "folders": {
        "type": "integer",
        "minimum": 0
       }
      }
     },
     "changeToken": {
      "type": "string"
     }
    }
   },
   "Asset": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "id",
     "localIdentifier",
     "mediaType",
     "mediaSubtypes",
     "playbackStyle",
     "contentType",
     "pixelWidth",
     "pixelHeight",
     "addedDate",
     "duration",
     "isFavorite",
     "isHidden",
     "sourceType",
     "representsBurst",
     "burstSelectionTypes",
     "hasAdjustments",
     "contentVersion"
    ],
    "properties": {
     "id": {
      "type": "string",
      "format": "uuid"
     },
     "localIdentifier": {
      "type": "string"
     },
     "mediaType": {
      "type": "integer",
      "description": "PHAssetMediaType"
     },
     "mediaSubtypes": {
      "type": "integer"
     },
     "playbackStyle": {
      "type": "integer"
     },
     "contentType": {
      "type": "string"
     },
     "pixelWidth": {
      "type": "integer"
     },
     "pixelHeight": {
      "type": "integer"
     },
     "creationDate": {
      "type": "string",
      "format": "date-time"
     },
     "creationTimeZoneOffset": {
      "type": ["integer", "null"],
      "description": "Seconds east of UTC of the clock that recorded creationDate: show the time as it was where the photo was taken"
     },
     "modificationDate": {
      "type": "string",
      "format": "date-time"
     },
     "addedDate": {
      "type": "string",
      "format": "date-time"
     },
     "location": {
      "type": "object",
      "required": [
       "latitude",
       "longitude"
      ],
      "additionalProperties": false,
      "properties": {
       "latitude": {
        "type": "number",
        "minimum": -90,
        "maximum": 90
       },
       "longitude": {
        "type": "number",
        "minimum": -180,
        "maximum": 180
       },
       "altitude": {
        "type": "number"
       }
      }
     },
     "duration": {
      "type": "number"
     },
     "isFavorite": {
      "type": "boolean"
     },
     "isHidden": {
      "type": "boolean"
     },
     "sourceType": {
      "type": "integer"
     },
     "burstIdentifier": {
      "type": "string"
     },
     "representsBurst": {
      "type": "boolean"
     },
     "burstSelectionTypes": {
      "type": "integer"
     },
     "hasAdjustments": {
      "type": "boolean"
     },
     "adjustmentFormatIdentifier": {
      "type": "string"
     },
     "contentVersion": {
      "type": "integer"
     },
     "cameraMake": {
      "type": "string",
      "description": "From the original's metadata"
     },
     "cameraModel": {
      "type": "string",
      "description": "From the original's metadata"
     },
     "thumbHash": {
      "type": "string",
      "contentEncoding": "base64",
      "description": "ThumbHash placeholder"
     }
    }
   },
   "Resource": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "type",
     "originalFilename",
     "uniformTypeIdentifier",
     "pixelWidth",
     "pixelHeight"
    ],
    "properties": {
     "type": {
      "type": "integer",
      "description": "PHAssetResourceType"
     },
     "originalFilename": {
      "type": "string"
     },
     "uniformTypeIdentifier": {
      "type": "string"
     },
     "pixelWidth": {
      "type": "integer"
     },
     "pixelHeight": {
      "type": "integer"
     }
    }
   },
   "Collection": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "id",
     "localIdentifier",
     "kind",
     "type",
     "subtype",
     "canContainAssets",
     "canContainCollections"
    ],
    "properties": {
     "id": {
      "type": "string"
     },
     "localIdentifier": {
      "type": "string"
     },
     "kind": {
      "type": "string",
      "enum": [
       "assetCollection",
       "collectionList"
      ]
     },
     "title": {
      "type": "string"
     },
     "type": {
      "type": "integer"
     },
     "subtype": {
      "type": "integer"
     },
     "estimatedAssetCount": {
      "type": "integer"
     },
     "startDate": {
      "type": "string",
      "format": "date-time"
     },
     "endDate": {
      "type": "string",
      "format": "date-time"
     },
     "canContainAssets": {
      "type": "boolean"
     },
     "canContainCollections": {
      "type": "boolean"
     }
    }
   },
   "AssetPage": {
    "type": "object",
    "required": [
     "items",
     "total"
    ],
    "additionalProperties": false,
    "properties": {
     "items": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Asset"
      }
     },
     "nextCursor": {
      "type": "string"
     },
     "total": {
      "type": "integer",
      "minimum": 0
     }
    }
   },
   "CollectionPage": {
    "type": "object",
    "required": [
     "items",
     "total"
    ],
    "additionalProperties": false,
    "properties": {
     "items": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Collection"
      }
     },
     "nextCursor": {
      "type": "string"
     },
     "total": {
      "type": "integer",
      "minimum": 0
     }
    }
   },
   "Change": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "token",
     "detailsUnavailable"
    ],
    "properties": {
     "token": {
      "type": "string"
     },
     "assets": {
      "type": "object",
      "additionalProperties": false,
      "required": [
       "inserted",
       "updated",
       "deleted"
      ],
      "properties": {
       "inserted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "updated": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "deleted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       }
      }
     },
     "assetCollections": {
      "type": "object",
      "additionalProperties": false,
      "required": [
       "inserted",
       "updated",
       "deleted"
      ],
      "properties": {
       "inserted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "updated": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "deleted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       }
      }
     },
     "collectionLists": {
      "type": "object",
      "additionalProperties": false,
      "required": [
       "inserted",
       "updated",
       "deleted"
      ],
      "properties": {
       "inserted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "updated": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "deleted": {
        "type": "array",
        "items": {
         "type": "string"
        }
       }
      }
     },
     "detailsUnavailable": {
      "type": "boolean"
     }
    }
   },
   "ChangePage": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "changes",
     "token",
     "moreComing"
    ],
    "properties": {
     "changes": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Change"
      }
     },
     "token": {
      "type": "string"
     },
     "moreComing": {
      "type": "boolean"
     }
    }
   },
   "ChangeRequest": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "op"
    ],
    "properties": {
     "op": {
      "type": "string",
      "enum": [
       "createAsset",
       "updateAsset",
       "deleteAssets",
       "restoreAssets",
       "createAlbum",
       "updateAlbum",
       "deleteAlbums",
       "createFolder",
       "updateFolder",
       "deleteFolders"
      ]
     },
     "ref": {
      "type": "string",
      "minLength": 1,
      "maxLength": 64,
      "description": "Names what this request creates; later requests refer to it as $ref",
      "pattern": "^[^#$]"
     },
     "upload": {
      "type": "string",
      "description": "For createAsset: the finished upload of the photo or video"
     },
     "pairedVideo": {
      "type": "string",
      "description": "For createAsset: the finished upload of a Live Photo's video, paired with the photo in upload. Without it, a photo and a video of the block's createAsset requests that carry the same Apple content identifier are paired by the server into one Live Photo, reported under both requests' refs; so are a camera raw file and the JPEG or HEIC uploaded under the same name (one photo, the raw its alternatePhoto, unless they were taken a second or more apart), and a Google Motion Photo's JPEG becomes a Live Photo with the video it carries"
     },
     "asset": {
      "type": "string"
     },
     "assets": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "album": {
      "type": "string"
     },
     "albums": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "folder": {
      "type": "string"
     },
     "folders": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "title": {
      "type": "string"
     },
     "favorite": {
      "type": "boolean"
     },
     "hidden": {
      "type": "boolean"
     },
     "creationDate": {
      "type": "string",
      "format": "date-time"
     },
     "location": {
      "oneOf": [
       {
        "type": "object",
        "required": [
         "latitude",
         "longitude"
        ],
        "additionalProperties": false,
        "properties": {
         "latitude": {
          "type": "number",
          "minimum": -90,
          "maximum": 90
         },
         "longitude": {
          "type": "number",
          "minimum": -180,
          "maximum": 180
         },
         "altitude": {
          "type": "number"
         }
        }
       },
       {
        "type": "null"
       }
      ]
     },
     "addAssets": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "removeAssets": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "addCollections": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "removeCollections": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "maxItems": 1000
     },
     "moveAssets": {
      "type": "array",
      "items": {
       "type": "string"
      },
      "description": "updateAlbum: assets of the album to move, each once"
     },
     "toIndex": {
      "type": "integer",
      "description": "updateAlbum: where the moved assets go in the album's order once taken out"
     }
    }
   },
   "ChangeBlock": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "requests"
    ],
    "properties": {
     "requests": {
      "type": "array",
      "minItems": 1,
      "maxItems": 1000,
      "items": {
       "$ref": "#/components/schemas/ChangeRequest"
      }
     }
    }
   },
   "Committed": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "created",
     "token"
    ],
    "properties": {
     "created": {
      "type": "object",
      "additionalProperties": {
       "type": "string"
      },
      "description": "What each creating request made, by its ref (or #index, its position in the block): its local identifier"
     },
     "token": {
      "type": "string"
     }
    }
   },
   "TimelineSummary": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "buckets"
    ],
    "properties": {
     "buckets": {
      "type": "array",
      "items": {
       "type": "object",
       "additionalProperties": false,
       "required": [
        "id",
        "count",
        "pages",
        "etag"
       ],
       "properties": {
        "id": {
         "type": "string",
         "description": "2024-05, 2024-05-17 or undated"
        },
        "count": {
         "type": "integer"
        },
        "pages": {
         "type": "integer"
        },
        "etag": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "TimelineColumns": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "bucket",
     "page",
     "pages",
     "ids",
     "aspectRatios",
     "creationDates",
     "mediaTypes",
     "durations",
     "favorites",
     "thumbHashes",
     "contentVersions"
    ],
    "properties": {
     "bucket": {
      "type": "string"
     },
     "page": {
      "type": "integer"
     },
     "pages": {
      "type": "integer"
     },
     "ids": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "aspectRatios": {
      "type": "array",
      "items": {
       "type": "number"
      }
     },
     "creationDates": {
      "type": "array",
      "description": "Seconds since 1970, to the millisecond; null for the undated",
      "items": {
       "type": [
        "number",
        "null"
       ]
      }
     },
     "mediaTypes": {
      "type": "array",
      "items": {
       "type": "integer"
      }
     },
     "durations": {
      "type": "array",
      "items": {
       "type": "number"
      }
     },
     "favorites": {
      "type": "array",
      "items": {
       "type": "boolean"
      }
     },
     "thumbHashes": {
      "type": "array",
      "items": {
       "type": [
        "string",
        "null"
       ],
       "contentEncoding": "base64"
      }
     },
     "contentVersions": {
      "type": "array",
      "items": {
       "type": "integer"
      }
     }
    }
   },
   "SignIn": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "token"
    ],
    "properties": {
     "token": {
      "type": "string"
     },
     "password": {
      "type": "string",
      "description": "A share link's password, when it has one"
     }
    }
   },
   "Session": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "csrfToken",
     "expires",
     "readOnly",
     "label"
    ],
    "properties": {
     "csrfToken": {
      "type": "string"
     },
     "expires": {
      "type": "string",
      "format": "date-time"
     },
     "client": {
      "type": "string"
     },
     "readOnly": {
      "type": "boolean"
     },
     "label": {
      "type": "string",
      "description": "The token's label; a share link's names the album it shares"
     }
    }
   },
   "Duplicate": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "duplicateOf"
    ],
    "properties": {
     "duplicateOf": {
      "type": "string"
     }
    }
   },
   "Share": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "id",
     "label",
     "created"
    ],
    "properties": {
     "id": {
      "type": "string"
     },
     "label": {
      "type": "string"
     },
     "created": {
      "type": "string",
      "format": "date-time"
     },
     "expires": {
      "type": "string",
      "format": "date-time"
     },
     "hasPassword": {
      "type": "boolean"
     }
    }
   },
   "ShareList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "shares"
    ],
    "properties": {
     "shares": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/Share"
      }
     }
    }
   },
   "NewShare": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "album"
    ],
    "properties": {
     "album": {
      "type": "string",
      "description": "The id of an album the user made"
     },
     "expires": {
      "type": "string",
      "format": "date-time",
      "description": "When the link stops working; never without it"
     },
     "password": {
      "type": "string",
      "minLength": 1,
      "description": "The link's password (1 to 1,024 bytes); its holder gives it when signing in"
     }
    }
   },
   "CreatedShare": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "share",
     "token",
     "path"
    ],
    "properties": {
     "share": {
      "$ref": "#/components/schemas/Share"
     },
     "token": {
      "type": "string",
      "description": "The bearer string, shown this once"
     },
     "path": {
      "type": "string",
      "description": "Where the gallery opens the link, relative to the server"
     }
    }
   },
   "UploadList": {
    "type": "object",
    "additionalProperties": false,
    "required": [
     "uploads"
    ],
    "properties": {
     "uploads": {
      "type": "array",
      "items": {
       "type": "object",
       "additionalProperties": false,
       "required": [
        "id",
        "token",
        "filename",
        "length",
        "received",
        "created",
        "lastWrite"
       ],
       "properties": {
        "id": {
         "type": "string"
        },
        "token": {
         "type": "string",
         "description": "The id of the token that made it"
        },
        "filename": {
         "type": "string"
        },
        "length": {
         "type": "integer"
        },
        "received": {
         "type": "integer"
        },
        "created": {
         "type": "string",
         "format": "date-time"
        },
        "lastWrite": {
         "type": "string",
         "format": "date-time"
        }
       }
      }
     }
    }
   }
  },
  "responses": {
   "BadRequest": {
    "description": "Bad input: a malformed predicate, sort key, cursor, token or body",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Unauthorized": {
    "description": "No valid token or session",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "TooManyRequests": {
    "description": "Too many failed sign-ins from this address (a valid token still works), or, for an event stream, as many streams of this token as it may hold",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "ContentTooLarge": {
    "description": "Body too large",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Forbidden": {
    "description": "The token may not do this (read-only, or its grant)",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "NotFound": {
    "description": "No such object, or none the token may see",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "RangeNotSatisfiable": {
    "description": "The range is outside the file",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Gone": {
    "description": "The token is older than the history kept (persistentChangeTokenExpired, 3105)",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Conflict": {
    "description": "An upload is not finished",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "PreconditionFailed": {
    "description": "The library changed since If-Match",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Unprocessable": {
    "description": "PhotoKit refused the change",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "PreconditionFailed2": {
    "description": "Not tus 1.0.0",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "ContentTooLarge2": {
    "description": "Larger than the server takes",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Conflict2": {
    "description": "Upload-Offset is not the bytes received, or another request writes it",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "ContentTooLarge3": {
    "description": "More bytes than announced",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "UnsupportedMediaType": {
    "description": "Not application/offset+octet-stream",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "Conflict3": {
    "description": "Another request writes it",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "NotJSON": {
    "description": "The body does not come as application/json",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "ServiceUnavailable": {
    "description": "A query ran past the server's deadline, the token has too many requests in progress, or too many clients read at once; Retry-After says when to try again",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   },
   "InsufficientStorage": {
    "description": "The server has no room for this upload beside what other uploads await, or its disk is full",
    "content": {
     "application/problem+json": {
      "schema": {
       "$ref": "#/components/schemas/Problem"
      }
     }
    }
   }
  },
  "parameters": {
   "predicate": {
    "name": "predicate",
    "in": "query",
    "required": false,
    "description": "A PhotoKit predicate over the fetch keys, as NSPredicate's format language (favorite == YES)",
    "schema": {
     "type": "string"
    }
   },
   "sort": {
    "name": "sort",
    "in": "query",
    "required": false,
    "description": "Comma-separated sort keys, each key, key:asc or key:desc",
    "schema": {
     "type": "string"
    }
   },
   "hidden": {
    "name": "hidden",
    "in": "query",
    "required": false,
    "description": "Include hidden assets (true), or not (false; empty or absent: the same)",
    "schema": {
     "type": "string",
     "enum": [
      "true",
      "false",
      ""
     ]
    }
   },
   "limit": {
    "name": "limit",
    "in": "query",
    "required": false,
    "description": "Objects per page (default 100)",
    "schema": {
     "type": "integer",
     "minimum": 1,
     "maximum": 1000
    }
   },
   "cursor": {
    "name": "cursor",
    "in": "query",
    "required": false,
    "description": "The nextCursor of the previous page",
    "schema": {
     "type": "string"
    }
   },
   "v": {
    "name": "v",
    "in": "query",
    "required": false,
    "description": "The content version, for an immutable URL",
    "schema": {
     "type": "string"
    }
   },
   "IfNoneMatch": {
    "name": "If-None-Match",
    "in": "header",
    "required": false,
    "schema": {
     "type": "string"
    }
   },
   "v2": {
    "name": "v",
    "in": "query",
    "required": false,
    "description": "The content version",
    "schema": {
     "type": "string"
    }
   },
   "Range": {
    "name": "Range",
    "in": "header",
    "required": false,
    "schema": {
     "type": "string"
    }
   },
   "page": {
    "name": "page",
    "in": "query",
    "required": false,
    "description": "The page, from 0",
    "schema": {
     "type": "integer",
     "minimum": 0
    }
   },
   "since": {
    "name": "since",
    "in": "query",
    "required": false,
    "description": "A change token",
    "schema": {
     "type": "string"
    }
   },
   "limit2": {
    "name": "limit",
    "in": "query",
    "required": false,
    "schema": {
     "type": "integer",
     "minimum": 1,
     "maximum": 1000
    }
   },
   "LastEventID": {
    "name": "Last-Event-ID",
    "in": "header",
    "required": false,
    "schema": {
     "type": "string"
    }
   },
   "IfMatch": {
    "name": "If-Match",
    "in": "header",
    "required": false,
    "schema": {
     "type": "string"
    },
    "description": "A change token the library must still be at"
   },
   "TusResumable": {
    "name": "Tus-Resumable",
    "in": "header",
    "required": true,
    "schema": {
     "type": "string",
     "const": "1.0.0"
    }
   },
   "UploadLength": {
    "name": "Upload-Length",
    "in": "header",
    "required": true,
    "schema": {
     "type": "string"
    }
   },
   "UploadMetadata": {
    "name": "Upload-Metadata",
    "in": "header",
    "required": false,
    "schema": {
     "type": "string"
    },
    "description": "filename, contentHash (XXH3-128 hex), duplicates (skip|keep), base64"
   },
   "UploadOffset": {
    "name": "Upload-Offset",
    "in": "header",
    "required": true,
    "schema": {
     "type": "string"
    }
   }
  }
 },
 "paths": {
  "/v1/session": {
   "post": {
    "summary": "Sign a browser in: exchange a token for an HttpOnly, SameSite=Strict session cookie",
    "security": [],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/SignIn"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Signed in; the cookie is set",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      },
      "headers": {
       "Set-Cookie": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "413": {
      "$ref": "#/components/responses/ContentTooLarge"
     },
     "415": {
      "$ref": "#/components/responses/NotJSON"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "delete": {
    "summary": "Sign out",
    "responses": {
     "204": {
      "description": "Signed out"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "get": {
    "summary": "The browser session this request's cookie carries, with its CSRF token (a reloaded page needs it again)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/library": {
   "get": {
    "summary": "The library as the token sees it",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Library"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets": {
   "get": {
    "summary": "Assets by predicate and sort, paged by cursor",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/hidden"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AssetPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}": {
   "get": {
    "summary": "One asset with every PhotoKit property",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id (UUID)",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Asset"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/resources": {
   "get": {
    "summary": "The asset's stored files",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Resource"
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/thumbnail": {
   "get": {
    "summary": "The asset's thumbnail (JPEG)",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/v"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     }
    ],
    "responses": {
     "200": {
      "description": "The image",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "image/jpeg": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/preview": {
   "get": {
    "summary": "The asset's preview (JPEG)",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/v"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     }
    ],
    "responses": {
     "200": {
      "description": "The image",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "image/jpeg": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/original": {
   "get": {
    "summary": "The asset's original file; Range gives part of it",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/v2"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     },
     {
      "$ref": "#/components/parameters/Range"
     }
    ],
    "responses": {
     "200": {
      "description": "The file",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "*/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "206": {
      "description": "Part of the file",
      "content": {
       "*/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "416": {
      "$ref": "#/components/responses/RangeNotSatisfiable"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/video": {
   "get": {
    "summary": "The video as browsers play it: its own file when they do, else an H.264/AAC MP4 made from it (503 with Retry-After while it is made); Range gives part of it",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/v2"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     },
     {
      "$ref": "#/components/parameters/Range"
     }
    ],
    "responses": {
     "200": {
      "description": "The video, as MP4 or WebM",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "video/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "206": {
      "description": "Part of the file",
      "content": {
       "video/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "416": {
      "$ref": "#/components/responses/RangeNotSatisfiable"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/motion": {
   "get": {
    "summary": "A Live Photo's motion (its paired video) as browsers play it, as for /video; 404 for an asset that is not a Live Photo",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/v2"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     },
     {
      "$ref": "#/components/parameters/Range"
     }
    ],
    "responses": {
     "200": {
      "description": "The motion, as MP4 or WebM",
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      },
      "content": {
       "video/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "206": {
      "description": "Part of the file",
      "content": {
       "video/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "416": {
      "$ref": "#/components/responses/RangeNotSatisfiable"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/albums": {
   "get": {
    "summary": "User albums",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/smart-albums": {
   "get": {
    "summary": "Smart albums",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/moments": {
   "get": {
    "summary": "Moments",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/folders": {
   "get": {
    "summary": "The top level of albums and folders",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/albums/{id}": {
   "get": {
    "summary": "An album, smart album or moment",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The collection's id",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Collection"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/albums/{id}/assets": {
   "get": {
    "summary": "The assets of an album",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The collection's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/hidden"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/AssetPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/folders/{id}": {
   "get": {
    "summary": "A folder",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The folder's id",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Collection"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/folders/{id}/children": {
   "get": {
    "summary": "What a folder holds",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The folder's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/sort"
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/timeline": {
   "get": {
    "summary": "Months that hold assets, newest first",
    "parameters": [
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/hidden"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TimelineSummary"
        }
       }
      },
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/timeline/{bucket}": {
   "get": {
    "summary": "A page of a bucket's assets as columns",
    "parameters": [
     {
      "name": "bucket",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      },
      "description": "2024-05, 2024-05-17 or undated"
     },
     {
      "$ref": "#/components/parameters/page"
     },
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/hidden"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TimelineColumns"
        }
       }
      },
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/timeline/{bucket}/days": {
   "get": {
    "summary": "The days of a month that hold assets",
    "parameters": [
     {
      "name": "bucket",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      },
      "description": "2024-05, 2024-05-17 or undated"
     },
     {
      "$ref": "#/components/parameters/predicate"
     },
     {
      "$ref": "#/components/parameters/hidden"
     },
     {
      "$ref": "#/components/parameters/IfNoneMatch"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/TimelineSummary"
        }
       }
      },
      "headers": {
       "ETag": {
        "schema": {
         "type": "string"
        }
       },
       "Cache-Control": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "304": {
      "description": "Not modified (If-None-Match matched)"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/changes": {
   "get": {
    "summary": "Persistent history since a token; with Accept: text/event-stream, a live stream of it",
    "parameters": [
     {
      "$ref": "#/components/parameters/since"
     },
     {
      "$ref": "#/components/parameters/limit2"
     },
     {
      "$ref": "#/components/parameters/LastEventID"
     }
    ],
    "responses": {
     "200": {
      "description": "Changes",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ChangePage"
        }
       },
       "text/event-stream": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "410": {
      "$ref": "#/components/responses/Gone"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "post": {
    "summary": "A change block: every request or none",
    "parameters": [
     {
      "$ref": "#/components/parameters/IfMatch"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ChangeBlock"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Committed"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "409": {
      "$ref": "#/components/responses/Conflict"
     },
     "412": {
      "$ref": "#/components/responses/PreconditionFailed"
     },
     "413": {
      "$ref": "#/components/responses/ContentTooLarge"
     },
     "422": {
      "$ref": "#/components/responses/Unprocessable"
     },
     "415": {
      "$ref": "#/components/responses/NotJSON"
     },
     "507": {
      "$ref": "#/components/responses/InsufficientStorage"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/uploads": {
   "options": {
    "summary": "What the tus server supports",
    "responses": {
     "204": {
      "description": "tus capabilities"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "post": {
    "summary": "Start a tus upload (creation extension)",
    "parameters": [
     {
      "$ref": "#/components/parameters/TusResumable"
     },
     {
      "$ref": "#/components/parameters/UploadLength"
     },
     {
      "$ref": "#/components/parameters/UploadMetadata"
     }
    ],
    "responses": {
     "201": {
      "description": "Created; Location names the upload"
     },
     "200": {
      "description": "The library already holds this content",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Duplicate"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "412": {
      "$ref": "#/components/responses/PreconditionFailed2"
     },
     "413": {
      "$ref": "#/components/responses/ContentTooLarge2"
     },
     "507": {
      "$ref": "#/components/responses/InsufficientStorage"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "get": {
    "summary": "The unfinished uploads the token may see: its own; every token's for the owner's",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/UploadList"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/uploads/{id}": {
   "head": {
    "summary": "An upload's offset",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "Upload-Offset and Upload-Length"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "patch": {
    "summary": "Append bytes at Upload-Offset",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/TusResumable"
     },
     {
      "$ref": "#/components/parameters/UploadOffset"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/offset+octet-stream": {
       "schema": {
        "type": "string",
        "format": "binary"
       }
      }
     }
    },
    "responses": {
     "204": {
      "description": "Appended; Upload-Offset is the new offset"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "409": {
      "$ref": "#/components/responses/Conflict2"
     },
     "412": {
      "$ref": "#/components/responses/PreconditionFailed2"
     },
     "413": {
      "$ref": "#/components/responses/ContentTooLarge3"
     },
     "415": {
      "$ref": "#/components/responses/UnsupportedMediaType"
     },
     "507": {
      "$ref": "#/components/responses/InsufficientStorage"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "delete": {
    "summary": "Abandon an upload (the owner's tokens may remove any token's)",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Removed"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "409": {
      "$ref": "#/components/responses/Conflict3"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/openapi.json": {
   "get": {
    "summary": "This document",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     }
    }
   }
  },
  "/metrics": {
   "get": {
    "summary": "Prometheus metrics (owner tokens only)",
    "responses": {
     "200": {
      "description": "Metrics",
      "content": {
       "text/plain": {
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/assets/{id}/albums": {
   "get": {
    "summary": "The albums the user made that hold the asset, paged",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "description": "The asset's id",
      "schema": {
       "type": "string"
      }
     },
     {
      "$ref": "#/components/parameters/limit"
     },
     {
      "$ref": "#/components/parameters/cursor"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CollectionPage"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/shares": {
   "get": {
    "summary": "The owner's share links",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/ShareList"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   },
   "post": {
    "summary": "Share an album: a read-only link that opens the gallery limited to its assets",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewShare"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Created",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CreatedShare"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "413": {
      "$ref": "#/components/responses/ContentTooLarge"
     },
     "415": {
      "$ref": "#/components/responses/NotJSON"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  },
  "/v1/shares/{id}": {
   "delete": {
    "summary": "Revoke a share link",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Revoked"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "403": {
      "$ref": "#/components/responses/Forbidden"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "503": {
      "$ref": "#/components/responses/ServiceUnavailable"
     }
    }
   }
  }
 }
}
"""#
}
