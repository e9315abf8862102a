// Anchors the precompiled header target (lib/Pch.h) that every library
// and tool of warplint reuses.
