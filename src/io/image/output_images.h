// SPDX-License-Identifier: MIT
// Image files written beside an output model (.gltf images, .mtl textures). Internal to io.
#pragma once

#include <cstddef>
#include <filesystem>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "critter/asset/material.h"
#include "critter/core/error.h"
#include "critter/io/atomic_file.h"

namespace critter::io::detail {

// MIME type of an image: its own field, else sniffed from its first bytes, else from the file
// extension of its path or URI; empty when unknown.
std::string image_mime(const Image& img, std::span<const std::uint8_t> bytes);

// File extension (with the dot) for a MIME type; ".bin" when unknown.
std::string extension_for_mime(std::string_view mime);

// Reads a whole file; false when it cannot be opened or read.
bool read_whole_file(const std::string& path, std::vector<std::uint8_t>* out);

// URI reference of a plain file name: bytes outside the unreserved set percent-encoded.
std::string percent_encode(std::string_view name);

// Names and stages the files of one output folder. File names are unique within one write (a
// second "a.png" becomes "a_2.png"); `reserve` the output's own names first.
class OutputImages {
 public:
  OutputImages(AtomicFileSet* files, std::filesystem::path dir, std::string stem)
      : files_(files), dir_(std::move(dir)), stem_(std::move(stem)) {}

  // Marks a file name as taken and returns the unique variant actually reserved.
  std::string reserve(std::string name);

  // Stages image `index` beside the output: an external file is copied under its own file name,
  // embedded bytes are written as "<stem>_<image name or 'image<index>'>.<ext>". A file of that
  // name already in the folder is never replaced: when it holds the same bytes it is used as it
  // is, else the first free "<name>_<n>.<ext>" (n = 2, 3, ...) is taken, so outputs of several
  // models written into one folder one after another never overwrite each other's images.
  // Returns the file name, or an empty string when the image is missing or its file cannot be
  // read (the caller warns). Errors are those of staging (kIo).
  Result<std::string> place(const Image& img, std::size_t index);

  const std::filesystem::path& dir() const { return dir_; }
  const std::string& stem() const { return stem_; }
  // Paths of the files staged by place(), in order.
  const std::vector<std::string>& written() const { return written_; }

 private:
  struct Slot {
    std::string name;  // file name in dir_
    bool write;        // false when dir_ already holds the same bytes under `name`
  };
  // The first variant of `name` not used in this write whose file is absent or holds `bytes`.
  Slot claim(const std::string& name, std::span<const std::uint8_t> bytes);

  AtomicFileSet* files_;
  std::filesystem::path dir_;
  std::string stem_;
  std::set<std::string> used_;
  std::vector<std::string> written_;
};

}  // namespace critter::io::detail
