#pragma once
// The mouse wheel edits a field only once the user has chosen it. Spin boxes, combo boxes and
// sliders take focus by a click or Tab only (Qt::StrongFocus, not the wheel), and a wheel
// turned over one that has no focus scrolls what holds it (the Run form, the Controls dock, a
// dialog) instead of changing its value.

class QObject;

namespace sv::ui {

// Installs the guard on the application, once (later calls do nothing); widgets that exist
// already are set up too. The main window installs it.
void installWheelGuard();

// Whether the guard is installed.
bool wheelGuardInstalled();

} // namespace sv::ui
