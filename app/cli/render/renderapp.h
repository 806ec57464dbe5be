#pragma once

/// The Qt Gui application that `render` and `bench layout` need for fonts, images and SVG:
/// created on first use, on the offscreen platform unless QT_QPA_PLATFORM names another, so the
/// commands run without a display.
class RenderApp
{
public:
    static void ensure();
};
